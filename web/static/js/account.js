// The header's account control: who this page plays as (an anonymous `anon-…` or an
// account), and the forms to register, log in, log out and change the password. The
// session is the server's HTTP-only cookie: the forms post to /api/…, the answer sets or
// clears the cookie, and the socket is renewed so the server sees the new session.

import { h } from './ui.js';
import { t } from './i18n.js';

/** @typedef {import('./net.js').Net} Net */

/** What a name may be (the server checks the same; this only words the refusal early). */
const NAME = /^[A-Za-z0-9_-]{3,20}$/;
/** `anon` or `ai` then a non-letter or nothing, in any case: the server's reserved names. */
const RESERVED = /^(anon|ai)([^a-z]|$)/i;

/**
 * Checks a name and password as the server would, for a refusal in the page's language
 * before any request. Returns the message key, or null when they may be sent.
 * @param {string} name
 * @param {string} password
 * @param {boolean} newAccount whether the name is to be made (login takes any name)
 */
export function precheck(name, password, newAccount) {
  if (newAccount && (!NAME.test(name) || RESERVED.test(name))) return 'account.bad_name';
  if (newAccount && ([...password].length < 8 || password.length > 256)) return 'account.bad_password';
  if (!name || !password) return 'account.missing';
  return null;
}

/**
 * The message for a refused account request, from its HTTP status (the server's words are
 * English; the page words them itself).
 * @param {Response} r
 * @param {'login'|'register'|'password'} what
 */
export function refusalText(r, what) {
  switch (r.status) {
    case 400:
      return t(what === 'register' ? 'account.bad_name' : 'account.bad_password');
    case 401:
      return t(what === 'password' ? 'account.wrong_old' : 'account.wrong');
    case 409:
      return t('account.taken');
    case 429:
      return t('account.too_many', { s: Number(r.headers.get('retry-after')) || 1 });
    case 503:
      return t('account.busy');
    default:
      return t('account.failed');
  }
}

/**
 * Posts JSON to an account route; the answer as is (the caller reads its status).
 * @param {string} path
 * @param {object} [body]
 */
async function post(path, body) {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
}

/**
 * Builds the control in `root` and keeps it up to date with the socket's user.
 * @param {HTMLElement} root
 * @param {Net} net
 */
export function accountControl(root, net) {
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', id: 'account-btn', 'aria-expanded': 'false', 'aria-controls': 'account-panel', title: t('account.menu') }));
  const panel = h('div', { id: 'account-panel', class: 'account-panel', role: 'dialog', 'aria-label': t('account.menu'), hidden: '' });
  root.replaceChildren(button, panel);
  /** @type {'login'|'register'} which form an anonymous user sees */
  let mode = 'login';

  const open = (/** @type {boolean} */ yes) => {
    panel.hidden = !yes;
    button.setAttribute('aria-expanded', String(yes));
    if (yes) {
      panel.style.top = `${Math.round(button.getBoundingClientRect().bottom + 6)}px`;
      render(true);
      /** @type {HTMLElement|null} */ (panel.querySelector('input'))?.focus();
    }
  };
  button.addEventListener('click', () => open(panel.hidden));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !panel.hidden) {
      open(false);
      button.focus();
    }
  });
  // A click elsewhere closes the panel; a click on a tab redraws the panel, leaving its
  // target out of the page by the time the click reaches here, which is no click elsewhere.
  document.addEventListener('click', (e) => {
    const target = /** @type {Node} */ (e.target);
    if (!panel.hidden && target.isConnected && !root.contains(target)) open(false);
  });

  /** A labelled input. @param {string} id @param {string} label @param {Record<string, string>} attrs */
  const field = (id, label, attrs) => {
    const input = /** @type {HTMLInputElement} */ (h('input', { id, name: id, required: '', ...attrs }));
    return { input, row: h('label', { for: id, class: 'field' }, h('span', {}, label), input) };
  };

  /**
   * A form whose submit runs `act`, showing its error (or success) below it; the button is
   * disabled while the request runs.
   * @param {string} id
   * @param {Node[]} rows
   * @param {string} submit
   * @param {() => Promise<{text: string, ok?: boolean}|null>} act what to show below (null:
   *   nothing)
   */
  const form = (id, rows, submit, act) => {
    const error = h('p', { class: 'account-error', role: 'alert' });
    const go = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit' }, submit));
    const f = h('form', { id, class: 'account-form' }, ...rows, go, error);
    f.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      go.disabled = true;
      error.textContent = '';
      /** @type {{text: string, ok?: boolean}|null} */
      let said;
      try {
        said = await act();
      } catch {
        said = { text: t('account.failed') };
      }
      error.textContent = said?.text ?? '';
      error.classList.toggle('ok', !!said?.ok);
      go.disabled = false;
    });
    return f;
  };

  /** After a new session: the panel closes and the socket is renewed as the new user. */
  const switched = () => {
    open(false);
    net.renew();
  };

  function anonymous() {
    const name = field('account-name', t('account.name'), { autocomplete: 'username', maxlength: '20', autocapitalize: 'off', spellcheck: 'false' });
    const pw = field('account-password', t('account.password'), { type: 'password', maxlength: '256', autocomplete: mode === 'login' ? 'current-password' : 'new-password' });
    const tab = (/** @type {'login'|'register'} */ m) => {
      const b = h('button', { type: 'button', role: 'tab', 'aria-selected': String(m === mode), 'data-tab': m, class: m === mode ? 'chosen' : 'secondary' }, t(`account.${m}`));
      b.addEventListener('click', () => {
        mode = m;
        render(true);
        /** @type {HTMLElement|null} */ (panel.querySelector('input'))?.focus();
      });
      return b;
    };
    const rows = [name.row, pw.row];
    if (mode === 'register') rows.push(h('p', { class: 'note' }, t('account.rules')));
    return [
      h('p', { class: 'note' }, t('account.anon_note', { name: net.user?.name ?? '' })),
      h('div', { class: 'tabs', role: 'tablist' }, tab('login'), tab('register')),
      form('account-form', rows, t(`account.${mode}`), async () => {
        const bad = precheck(name.input.value.trim(), pw.input.value, mode === 'register');
        if (bad) return { text: t(bad) };
        const r = await post(`/api/${mode}`, { name: name.input.value.trim(), password: pw.input.value });
        if (!r.ok) return { text: refusalText(r, mode) };
        switched();
        return null;
      }),
    ];
  }

  function signedIn() {
    const logout = h('button', { type: 'button', id: 'logout', class: 'secondary' }, t('account.logout'));
    logout.addEventListener('click', async () => {
      // The cookie is cleared by the answer; whatever it says, a new anonymous session
      // follows on the renewed socket.
      net.detach();
      await post('/api/logout').catch(() => null);
      switched();
    });
    const old = field('old-password', t('account.old_password'), { type: 'password', maxlength: '256', autocomplete: 'current-password' });
    const now = field('new-password', t('account.new_password'), { type: 'password', maxlength: '256', autocomplete: 'new-password' });
    const change = form('password-form', [old.row, now.row, h('p', { class: 'note' }, t('account.password_rules'))], t('account.change_password'), async () => {
      const bad = precheck(net.user?.name ?? '', now.input.value, true);
      if (bad === 'account.bad_password') return { text: t(bad) };
      const r = await post('/api/password', { old: old.input.value, new: now.input.value });
      if (!r.ok) return { text: refusalText(r, 'password') };
      old.input.value = '';
      now.input.value = '';
      return { text: t('account.password_changed'), ok: true };
    });
    return [
      h('p', {}, t('account.signed_in', { name: net.user?.name ?? '' })),
      logout,
      h('h3', {}, t('account.change_password')),
      change,
    ];
  }

  /** Whom the open panel's forms are for: they are rebuilt only when that changes, so a
   * reconnection does not wipe what is being typed. */
  let shownFor = '';
  /** @param {boolean} [again] rebuild the panel even for the same user (opening, tabs) */
  function render(again = false) {
    const user = net.user;
    button.textContent = user ? user.name : '…';
    button.dataset.account = String(!!user?.account);
    const who = user ? `${user.id}/${user.account}/${mode}` : '';
    if (panel.hidden || (!again && who === shownFor)) return;
    shownFor = who;
    panel.replaceChildren(...(user?.account ? signedIn() : anonymous()));
  }

  net.on((m) => {
    if (m.t === 'welcome') render();
  });
  net.onStatus(() => render());
  render();
}
