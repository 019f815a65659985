// The page: one socket, a header, and the screens picked by the address (#/…).

import { Net, socketUrl } from './net.js';
import { GameView } from './game.js';
import { h, GAMES, gameName, pastGames, prefs, savePrefs, applyTheme, reasonText, profileLink, clockText } from './ui.js';
import { lobbyScreen, optionsText } from './lobby.js';
import { profileScreen, leaderboardScreen } from './profile.js';
import { muted, setMuted, play, played } from './sound.js';
import { t, LANGS, lang, setLang, translateDom, loadLang } from './i18n.js';
import { accountControl } from './account.js';
import { yourTurn } from './turns.js';
import { AnalysisBoard } from './analysis.js';
import { BoardEditor } from './editor.js';

/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').SeekInfo} SeekInfo */
/** @typedef {import('./types.js').GameSummary} GameSummary */

const net = new Net(socketUrl());
// A handle for tests and for people debugging in the console.
window.cannonade = { net, game: null, analysis: null, sounds: played };
// The language's catalogue comes next: every text below is read from it.
await loadLang();
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const conn = /** @type {HTMLElement} */ (document.getElementById('conn'));
const muteBtn = /** @type {HTMLButtonElement} */ (document.getElementById('mute'));

/** @type {{destroy: () => void, onWelcome?: () => void}|null} */
let screen = null;

/** @type {{seeks: SeekInfo[], games: GameSummary[], live: number}} */
const lobby = { seeks: [], games: [], live: 0 };
/** @type {Set<string>} seeks this page made */
const mySeeks = new Set();
/** @type {string|null} */
let inviteLink = null;

const CLOCKS = /** @type {const} */ ([
  [0, 0],
  [180000, 2000],
  [300000, 3000],
  [600000, 5000],
]);

function renderConn() {
  const s = net.status;
  // Who this page plays as is the account control's (beside it), not repeated here.
  conn.textContent = s === 'open' ? t('conn.online') : s === 'connecting' ? t('conn.connecting') : t('conn.reconnecting');
  conn.className = `conn ${s}`;
  document.body.classList.toggle('is-offline', s !== 'open');
}

function renderMute() {
  muteBtn.textContent = muted() ? t('sound.off') : t('sound.on');
  muteBtn.setAttribute('aria-pressed', String(muted()));
}

muteBtn.addEventListener('click', () => {
  setMuted(!muted());
  renderMute();
  play('move');
});

/** The header's settings: language, board theme, Xiangqi/Banqi piece set. */
function settings() {
  const box = /** @type {HTMLElement} */ (document.getElementById('settings'));
  const select = (/** @type {string} */ id, /** @type {string} */ label, /** @type {[string, string][]} */ options, /** @type {string} */ value, /** @type {(v: string) => void} */ f) => {
    const s = /** @type {HTMLSelectElement} */ (h('select', { id, 'aria-label': label, title: label }, ...options.map(([v, n]) => h('option', { value: v }, n))));
    s.value = value;
    s.addEventListener('change', () => f(s.value));
    return s;
  };
  const p = prefs();
  box.replaceChildren(
    select('lang', t('settings.language'), Object.entries(LANGS), lang(), (v) => setLang(/** @type {import('./i18n.js').Lang} */ (v))),
    select('theme', t('settings.theme'), [['wood', t('theme.wood')], ['slate', t('theme.slate')]], p.theme, (v) => {
      savePrefs({ ...prefs(), theme: v === 'slate' ? 'slate' : 'wood' });
    }),
    select('piece-set', t('settings.pieces'), [['traditional', t('pieces.traditional')], ['figures', t('pieces.figures')]], p.pieceSet, (v) => {
      savePrefs({ ...prefs(), pieceSet: v === 'figures' ? 'figures' : 'traditional' });
      const game = window.cannonade.game;
      if (game) {
        game.render();
        game.renderLegend();
      }
    }),
  );
}

net.onStatus(renderConn);
/** @type {GameKind[]|null} the games this server plays, from `welcome` */
let available = null;
/** @type {string|null} the user of the last `welcome` */
let welcomedAs = null;

net.on((m) => {
  if (m.t === 'welcome') {
    renderConn();
    available = m.games;
    const was = welcomedAs;
    welcomedAs = m.user.id;
    if (was !== null && was !== m.user.id) {
      // Logged in or out: the screen is drawn again for the new user (a game's seats, the
      // lobby's own seeks and "My games" are someone else's now).
      mySeeks.clear();
      inviteLink = null;
      route();
      return;
    }
    screen?.onWelcome?.();
  } else if (m.t === 'game_started') {
    play('notify');
    location.hash = `#/game/${m.game}`;
  } else if (m.t === 'lobby') {
    lobby.seeks = m.seeks;
    lobby.games = m.games;
    lobby.live = m.live;
    refreshLobby();
  } else if (m.t === 'seek_added') {
    lobby.seeks = [...lobby.seeks.filter((s) => s.id !== m.seek.id), m.seek];
    refreshLobby();
  } else if (m.t === 'seek_removed') {
    lobby.seeks = lobby.seeks.filter((s) => s.id !== m.id);
    refreshLobby();
  } else if (m.t === 'invite_created') {
    inviteLink = `${location.origin}${m.path}`;
    mySeeks.add(m.code);
    refreshLobby();
  } else if (m.t === 'error' && !m.game) {
    // The chat panel says its own refusals (the flood limit names no game), in the page's
    // language.
    if (window.cannonade.game?.chat.claims(m.code)) return;
    toast(m.message);
  }
});

/** @param {string} text */
function toast(text) {
  const el = h('div', { class: 'toast', role: 'alert' }, text);
  document.body.append(el);
  setTimeout(() => el.remove(), 5000);
}

/** @type {() => void} */
let refreshLobby = () => {};

// ---- screens ------------------------------------------------------------------------------

function home() {
  /** @type {GameKind} */
  let game = /** @type {GameKind} */ (localStorage.getItem('cannonade_game') ?? 'xiangqi');
  if (!GAMES.includes(game)) game = 'xiangqi';
  const pick = h('div', { class: 'game-pick', role: 'radiogroup', 'aria-label': t('home.game') });
  const drawPick = () =>
    pick.replaceChildren(
      ...GAMES.map((g) => {
        // A game this server does not play is shown greyed out, not offered.
        const off = available !== null && !available.includes(g);
        const b = h('button', { type: 'button', role: 'radio', 'aria-checked': String(g === game), 'data-game': g, class: g === game ? 'chosen' : '' },
          h('strong', {}, gameName(g)), h('span', { class: 'blurb' }, t(`home.blurb.${g}`)), h('a', { href: `/rules/${g}.html`, class: 'rules-link' }, t('home.rules')));
        if (off) b.setAttribute('disabled', '');
        b.addEventListener('click', (e) => {
          if (/** @type {HTMLElement} */ (e.target).closest('a') || off) return;
          game = g;
          localStorage.setItem('cannonade_game', g);
          drawPick();
        });
        return b;
      }),
    );
  if (available && !available.includes(game)) game = available[0] ?? game;
  drawPick();
  const clock = /** @type {HTMLSelectElement} */ (h('select', { id: 'clock', 'aria-label': t('home.clock') }, ...CLOCKS.map(([ms, inc], i) => h('option', { value: String(i) }, clockText({ initial_ms: ms, increment_ms: inc })))));
  clock.value = '2';
  const tc = () => {
    const c = CLOCKS[Number(clock.value)];
    return { initial_ms: c[0], increment_ms: c[1] };
  };
  // Rated games need an account and a clock (the server refuses others).
  const rated = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'rated' }));
  const level = /** @type {HTMLSelectElement} */ (h('select', { id: 'level', 'aria-label': t('home.level') }, ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((l) => h('option', { value: String(l) }, t('home.level_n', { n: l })))));
  const seat = /** @type {HTMLSelectElement} */ (h('select', { id: 'seat', 'aria-label': t('home.seat') }, h('option', { value: 'first' }, t('home.seat_first')), h('option', { value: 'second' }, t('home.seat_second')), h('option', { value: '' }, t('home.seat_random'))));
  main.replaceChildren(
    h('section', { class: 'home' },
      h('h2', {}, t('home.choose_game')), pick,
      h('div', { class: 'row' }, h('label', { for: 'clock' }, t('home.clock') + ' '), clock),
      h('h2', {}, t('home.choose_mode')),
      h('div', { class: 'modes' },
        h('div', { class: 'mode' }, h('h3', {}, t('home.ai')), level, seat,
          actButton('ai', t('home.play_ai'), () => net.send({ t: 'play_ai', game, options: '', clock: tc(), level: Number(level.value), seat: seat.value || null }))),
        h('div', { class: 'mode' }, h('h3', {}, t('home.hotseat')),
          actButton('hotseat', t('home.start_hotseat'), () => net.send({ t: 'hotseat', game, options: '', clock: tc() }))),
        h('div', { class: 'mode' }, h('h3', {}, t('home.online')),
          h('label', { class: 'rated', title: t('home.rated_note') }, rated, ' ' + t('home.rated')),
          actButton('seek', t('home.seek'), () => {
            net.send({ t: 'seek', game, options: '', clock: tc(), rated: rated.checked });
            location.hash = '#/lobby';
          }),
          actButton('invite', t('home.invite'), () => {
            inviteLink = null;
            net.send({ t: 'invite', game, options: '', clock: tc(), rated: rated.checked });
            location.hash = '#/lobby';
          })),
      ),
    ),
  );
  return {
    destroy() {},
    onWelcome() {
      if (available && !available.includes(game)) game = available[0] ?? game;
      drawPick();
    },
  };
}

/** A copy button for a text field. @param {HTMLInputElement} input */
function copyButton(input) {
  const b = h('button', { type: 'button', 'data-action': 'copy', class: 'secondary' }, t('lobby.copy'));
  b.addEventListener('click', () => {
    input.select();
    // Without clipboard access (a plain http page) the text stays selected to copy by hand.
    navigator.clipboard?.writeText(input.value).catch(() => {});
    b.textContent = t('lobby.copied');
  });
  return b;
}

function liveScreen() {
  const stop = net.follow(() => [{ t: 'lobby_subscribe' }]);
  const box = h('section', { class: 'live' });
  main.replaceChildren(box);
  refreshLobby = () => {
    const rows = lobby.games.map((g) =>
      h('li', {}, h('a', { href: `#/game/${g.id}`, 'data-watch': g.id }, `${gameName(g.game)}: ${g.players[0]} – ${g.players[1]}`), ` · ${t('live.moves', { n: g.moves })} · ${t('game.watching_n', { n: g.spectators })}`));
    box.replaceChildren(h('h2', {}, t('live.title')), rows.length ? h('ul', { class: 'games' }, ...rows) : h('p', {}, t('live.none')));
  };
  refreshLobby();
  return {
    destroy() {
      stop();
      net.send({ t: 'lobby_unsubscribe' });
      refreshLobby = () => {};
    },
  };
}

function pastScreen() {
  const box = h('section', { class: 'past' }, h('h2', {}, t('past.title')), h('p', {}, t('past.loading')));
  main.replaceChildren(box);
  let gone = false;
  const deviceList = () => {
    const list = pastGames();
    box.replaceChildren(
      h('h2', {}, t('past.device_title')),
      h('p', { class: 'note' }, t('past.device_note')),
      list.length
        ? h('ul', { class: 'games' }, ...list.map((g) =>
          h('li', {}, h('a', { href: `#/game/${g.id}` }, `${gameName(g.kind)}: ${g.players[0]} – ${g.players[1]}`),
            ` · ${t('live.moves', { n: g.moves })} · ${g.result} · ${new Date(g.at).toLocaleString(lang())}`)))
        : h('p', {}, t('past.none')),
    );
  };
  // The session's cookie is set (and current) once the socket has its welcome.
  let asked = false;
  const load = () => {
    if (asked || gone) return;
    asked = true;
    fetch('/api/my-games', { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((/** @type {{games: import('./types.js').PastGameInfo[]}} */ body) => {
        if (gone) return;
        box.replaceChildren(
          h('h2', {}, t('past.title')),
          body.games.length
            ? h('ul', { class: 'games', 'data-source': 'server' }, ...body.games.map((g) =>
              h('li', {}, h('a', { href: `#/game/${g.id}`, 'data-past': g.id }, `${gameName(g.game)}: ${g.players[0]} – ${g.players[1]}`),
                ` · ${pastResult(g)} · ${new Date(g.created_ms).toLocaleString(lang())}`)))
            : h('p', {}, t('past.none')),
        );
      })
      .catch(() => {
        if (!gone) deviceList();
      });
  };
  if (net.user) load();
  return {
    destroy() {
      gone = true;
    },
    onWelcome: load,
  };
}

/**
 * A past game's result from the session's side.
 * @param {import('./types.js').PastGameInfo} g
 */
function pastResult(g) {
  const r = g.result;
  if (!r) return t('past.in_progress');
  const why = reasonText(r.reason);
  if (!r.winner) return r.reason === 'aborted' ? t('past.aborted') : t('past.draw', { why });
  if (g.you === 'both' || g.you === 'spectator') return t(r.winner === 'first' ? 'past.first_won' : 'past.second_won', { why });
  return t(r.winner === g.you ? 'past.won' : 'past.lost', { why });
}

/**
 * A button that sends to the server: a click while the page is still connecting (a link
 * just opened) waits for the socket, and says so when it does not open.
 * @param {string} name its `data-mode`
 * @param {string} label
 * @param {() => void} f
 */
function actButton(name, label, f) {
  const b = h('button', { type: 'button', 'data-mode': name }, label);
  b.addEventListener('click', () => net.whenOpen(f, () => toast(t('home.not_connected'))));
  return b;
}

/** @param {string} code */
function inviteScreen(code) {
  const b = actButton('accept-invite', t('invite.join'), () => net.send({ t: 'accept_seek', id: code }));
  const what = h('p', { class: 'invite-what' }, t('invite.looking'));
  const details = h('dl', { class: 'invite-details' });
  main.replaceChildren(h('section', { class: 'invite' }, h('h2', {}, t('invite.title')), what, details, b));
  // What the invite offers: game, clock, who.
  fetch(`/api/invite/${encodeURIComponent(code)}`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((/** @type {SeekInfo} */ s) => {
      what.replaceChildren(t('invite.what', { who: s.by, game: gameName(s.game), clock: clockText(s.clock) }), ' ', h('a', { href: `/rules/${s.game}.html` }, t('home.rules')));
      what.dataset.game = s.game;
      // What the friend agrees to before joining: the inviter (their profile), the
      // clock, rated or casual, and the rule options.
      details.replaceChildren(
        h('dt', {}, t('invite.from')), h('dd', { 'data-detail': 'by' }, profileLink(s.by)),
        h('dt', {}, t('home.game')), h('dd', { 'data-detail': 'game' }, gameName(s.game)),
        h('dt', {}, t('home.clock')), h('dd', { 'data-detail': 'clock' }, clockText(s.clock)),
        h('dt', {}, t('invite.mode')), h('dd', { 'data-detail': 'rated' }, t(s.rated ? 'game.rated' : 'game.casual')),
        h('dt', {}, t('invite.options')), h('dd', { 'data-detail': 'options' }, optionsText(s.game, s.options)),
      );
    })
    .catch(() => {
      what.textContent = t('invite.gone');
    });
  return { destroy() {} };
}

/** A name from the address, as typed (a malformed escape is kept as it came). @param {string} text */
function decodeName(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function route() {
  screen?.destroy();
  screen = null;
  window.cannonade.game = null;
  const invite = /^\/invite\/([\w-]+)/.exec(location.pathname);
  const profile = /^\/@\/([^/]+)$/.exec(location.pathname);
  const hash = location.hash.replace(/^#/, '') || '/';
  // The server also serves the page at /game/ID (links it hands out).
  const game = /^\/game\/([\w-]+)/.exec(hash) ?? (hash === '/' ? /^\/game\/([\w-]+)/.exec(location.pathname) : null);
  // A profile is no screen of the header's: nothing is marked there.
  // The analysis board's address carries its game and line: its link is marked for any.
  const here = profile && hash === '/' ? null : hash.startsWith('/analysis') || hash.startsWith('/editor') ? '#/analysis' : '#' + hash;
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('here', a.getAttribute('href') === here);
  if (game) {
    const view = new GameView(main, net, game[1]);
    screen = { destroy: () => view.destroy() };
    window.cannonade.game = view;
  } else if (invite && hash === '/') screen = inviteScreen(invite[1]);
  else if (profile && hash === '/') screen = profileScreen(main, decodeName(profile[1]));
  else if (hash === '/leaderboard') screen = leaderboardScreen(main);
  else if (hash === '/lobby') {
    const view = lobbyScreen(main, net, lobby, mySeeks, () => inviteLink, copyButton, toast);
    refreshLobby = view.refresh;
    screen = { destroy: () => { view.destroy(); refreshLobby = () => {}; } };
  }
  else if (hash.startsWith('/analysis')) {
    const view = new AnalysisBoard(main, net, hash.replace(/^\/analysis\/?/, ''));
    screen = { destroy: () => { view.destroy(); window.cannonade.analysis = null; } };
    window.cannonade.analysis = view;
  }
  else if (hash.startsWith('/editor')) {
    const view = new BoardEditor(main, net, hash.replace(/^\/editor\/?/, ''));
    screen = { destroy: () => view.destroy() };
  }
  else if (hash === '/live') screen = liveScreen();
  else if (hash === '/past') screen = pastScreen();
  else screen = home();
}

window.addEventListener('hashchange', route);
applyTheme();
translateDom();
settings();
accountControl(/** @type {HTMLElement} */ (document.getElementById('account')), net);
yourTurn(/** @type {HTMLElement} */ (document.getElementById('your-turn')), net);
renderConn();
renderMute();
route();
net.connect();
