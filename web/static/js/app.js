// The page: one socket, a header, and the screens picked by the address (#/…).

import { Net, socketUrl } from './net.js';
import { GameView } from './game.js';
import { h, GAME_NAMES, pastGames } from './ui.js';
import { muted, setMuted, play } from './sound.js';

/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').SeekInfo} SeekInfo */
/** @typedef {import('./types.js').GameSummary} GameSummary */

const net = new Net(socketUrl());
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
  ['No clock', 0, 0],
  ['3 + 2', 180000, 2000],
  ['5 + 3', 300000, 3000],
  ['10 + 5', 600000, 5000],
]);

function renderConn() {
  const s = net.status;
  conn.textContent = s === 'open' ? `● online${net.user ? ' as ' + net.user.name : ''}` : s === 'connecting' ? '○ connecting…' : '○ reconnecting…';
  conn.className = `conn ${s}`;
  document.body.classList.toggle('is-offline', s !== 'open');
}

function renderMute() {
  muteBtn.textContent = muted() ? 'Sound: off' : 'Sound: on';
  muteBtn.setAttribute('aria-pressed', String(muted()));
}

muteBtn.addEventListener('click', () => {
  setMuted(!muted());
  renderMute();
  play('move');
});

net.onStatus(renderConn);
/** @type {GameKind[]|null} the games this server plays, from `welcome` */
let available = null;

net.on((m) => {
  if (m.t === 'welcome') {
    renderConn();
    available = m.games;
    screen?.onWelcome?.();
  }
  else if (m.t === 'game_started') {
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
    toast(m.message);
  }
});

/** @param {string} text */
function toast(text) {
  const t = h('div', { class: 'toast', role: 'alert' }, text);
  document.body.append(t);
  setTimeout(() => t.remove(), 5000);
}

/** @type {() => void} */
let refreshLobby = () => {};

// ---- screens ------------------------------------------------------------------------------

function home() {
  /** @type {GameKind} */
  let game = /** @type {GameKind} */ (localStorage.getItem('cannonade_game') ?? 'xiangqi');
  const games = /** @type {GameKind[]} */ (Object.keys(GAME_NAMES));
  const pick = h('div', { class: 'game-pick', role: 'radiogroup', 'aria-label': 'Game' });
  const drawPick = () =>
    pick.replaceChildren(
      ...games.map((g) => {
        // A game this server does not play is shown greyed out, not offered.
        const off = available !== null && !available.includes(g);
        const b = h('button', { type: 'button', role: 'radio', 'aria-checked': String(g === game), 'data-game': g, class: g === game ? 'chosen' : '' },
          h('strong', {}, GAME_NAMES[g]), h('a', { href: `rules/${g}.html`, class: 'rules-link' }, 'rules'));
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
  const clock = /** @type {HTMLSelectElement} */ (h('select', { id: 'clock', 'aria-label': 'Clock' }, ...CLOCKS.map(([n], i) => h('option', { value: String(i) }, n))));
  clock.value = '2';
  const tc = () => {
    const c = CLOCKS[Number(clock.value)];
    return { initial_ms: c[1], increment_ms: c[2] };
  };
  const level = /** @type {HTMLSelectElement} */ (h('select', { id: 'level', 'aria-label': 'AI level' }, ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((l) => h('option', { value: String(l) }, `Level ${l}`))));
  const seat = /** @type {HTMLSelectElement} */ (h('select', { id: 'seat', 'aria-label': 'Your seat' }, h('option', { value: 'first' }, 'Move first'), h('option', { value: 'second' }, 'Move second'), h('option', { value: '' }, 'Random seat')));
  const act = (/** @type {string} */ name, /** @type {string} */ label, /** @type {() => void} */ f) => {
    const b = h('button', { type: 'button', 'data-mode': name }, label);
    b.addEventListener('click', () => {
      if (net.status !== 'open') return toast('Not connected yet.');
      f();
    });
    return b;
  };
  main.replaceChildren(
    h('section', { class: 'home' },
      h('h2', {}, 'Choose a game'), pick,
      h('div', { class: 'row' }, h('label', { for: 'clock' }, 'Clock '), clock),
      h('h2', {}, 'Choose how to play'),
      h('div', { class: 'modes' },
        h('div', { class: 'mode' }, h('h3', {}, 'Against the computer'), level, seat,
          act('ai', 'Play the AI', () => net.send({ t: 'play_ai', game, options: '', clock: tc(), level: Number(level.value), seat: seat.value || null }))),
        h('div', { class: 'mode' }, h('h3', {}, 'Two people, this device'),
          act('hotseat', 'Start hot-seat', () => net.send({ t: 'hotseat', game, options: '', clock: tc() }))),
        h('div', { class: 'mode' }, h('h3', {}, 'Online'),
          act('seek', 'Seek an opponent', () => {
            net.send({ t: 'seek', game, options: '', clock: tc(), rated: false });
            location.hash = '#/lobby';
          }),
          act('invite', 'Invite a friend', () => {
            inviteLink = null;
            net.send({ t: 'invite', game, options: '', clock: tc(), rated: false });
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

function lobbyScreen() {
  const stop = net.follow(() => [{ t: 'lobby_subscribe' }]);
  const box = h('section', { class: 'lobby' });
  main.replaceChildren(box);
  refreshLobby = () => {
    const me = net.user?.name;
    const rows = lobby.seeks.map((s) => {
      const mine = s.by === me || mySeeks.has(s.id);
      const b = h('button', { type: 'button', 'data-seek': s.id }, mine ? 'Cancel' : 'Play');
      b.addEventListener('click', () => net.send(mine ? { t: 'cancel_seek', id: s.id } : { t: 'accept_seek', id: s.id }));
      return h('li', { class: mine ? 'mine' : '' }, `${GAME_NAMES[s.game] ?? s.game} · ${s.by} · ${clockText(s.clock)} `, b);
    });
    const invite = inviteLink
      ? h('p', { class: 'invite' }, 'Send this link to your friend: ', h('input', { readonly: '', value: inviteLink, id: 'invite-link', 'aria-label': 'Invite link' }))
      : '';
    box.replaceChildren(
      h('h2', {}, 'Lobby'), invite,
      rows.length ? h('ul', { class: 'seeks' }, ...rows) : h('p', {}, 'No open seeks. Start one from the home page.'),
      h('p', {}, `${lobby.live} live game${lobby.live === 1 ? '' : 's'} — `, h('a', { href: '#/live' }, 'watch')),
    );
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

function liveScreen() {
  const stop = net.follow(() => [{ t: 'lobby_subscribe' }]);
  const box = h('section', { class: 'live' });
  main.replaceChildren(box);
  refreshLobby = () => {
    const rows = lobby.games.map((g) =>
      h('li', {}, h('a', { href: `#/game/${g.id}`, 'data-watch': g.id }, `${GAME_NAMES[g.game] ?? g.game}: ${g.players[0]} – ${g.players[1]}`), ` · ${g.moves} moves · ${g.spectators} watching`));
    box.replaceChildren(h('h2', {}, 'Live games'), rows.length ? h('ul', { class: 'games' }, ...rows) : h('p', {}, 'No game is being played right now.'));
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
  const box = h('section', { class: 'past' }, h('h2', {}, 'Your games'), h('p', {}, 'Loading…'));
  main.replaceChildren(box);
  let gone = false;
  const deviceList = () => {
    const list = pastGames();
    box.replaceChildren(
      h('h2', {}, 'Your games on this device'),
      h('p', { class: 'note' }, 'The server’s list could not be had; this is the list kept by this browser.'),
      list.length
        ? h('ul', { class: 'games' }, ...list.map((g) =>
          h('li', {}, h('a', { href: `#/game/${g.id}` }, `${GAME_NAMES[g.kind] ?? g.kind}: ${g.players[0]} – ${g.players[1]}`),
            ` · ${g.moves} moves · ${g.result} · ${new Date(g.at).toLocaleString()}`)))
        : h('p', {}, 'No games yet.'),
    );
  };
  // The session's token is known (and current) once the socket has its welcome.
  let asked = false;
  const load = () => {
    if (asked || gone) return;
    asked = true;
    const token = localStorage.getItem('cannonade_token');
    fetch('/api/my-games', { headers: token ? { Authorization: `Bearer ${token}` } : {} })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((/** @type {{games: import('./types.js').PastGameInfo[]}} */ body) => {
        if (gone) return;
        box.replaceChildren(
          h('h2', {}, 'Your games'),
          body.games.length
            ? h('ul', { class: 'games', 'data-source': 'server' }, ...body.games.map((g) => {
              const result = pastResult(g);
              return h('li', {}, h('a', { href: `#/game/${g.id}`, 'data-past': g.id }, `${GAME_NAMES[g.game] ?? g.game}: ${g.players[0]} – ${g.players[1]}`),
                ` · ${result} · ${new Date(g.created_ms).toLocaleString()}`);
            }))
            : h('p', {}, 'No games yet.'),
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
  if (!r) return 'in progress';
  const why = r.reason.replace(/[-_]/g, ' ');
  if (!r.winner) return r.reason === 'aborted' ? 'aborted' : `draw (${why})`;
  if (g.you === 'both' || g.you === 'spectator') return `${r.winner === 'first' ? 'first' : 'second'} player won (${why})`;
  return `${r.winner === g.you ? 'won' : 'lost'} (${why})`;
}

/** @param {string} code */
function inviteScreen(code) {
  const b = h('button', { type: 'button', 'data-mode': 'accept-invite' }, 'Join the game');
  b.addEventListener('click', () => net.send({ t: 'accept_seek', id: code }));
  main.replaceChildren(h('section', { class: 'invite' }, h('h2', {}, 'You are invited to a game'), b));
  return { destroy() {} };
}

/** @param {{initial_ms: number, increment_ms: number}} c */
function clockText(c) {
  return c.initial_ms ? `${c.initial_ms / 60000} + ${c.increment_ms / 1000}` : 'no clock';
}

function route() {
  screen?.destroy();
  screen = null;
  const invite = /^\/invite\/([\w-]+)/.exec(location.pathname);
  const hash = location.hash.replace(/^#/, '') || '/';
  // The server also serves the page at /game/ID (links it hands out).
  const game = /^\/game\/([\w-]+)/.exec(hash) ?? (hash === '/' ? /^\/game\/([\w-]+)/.exec(location.pathname) : null);
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('here', a.getAttribute('href') === '#' + hash);
  if (game) {
    const view = new GameView(main, net, game[1]);
    screen = { destroy: () => view.destroy() };
    window.cannonade.game = view;
  } else if (invite && hash === '/') screen = inviteScreen(invite[1]);
  else if (hash === '/lobby') screen = lobbyScreen();
  else if (hash === '/live') screen = liveScreen();
  else if (hash === '/past') screen = pastScreen();
  else screen = home();
}

// A handle for tests and for people debugging in the console.
window.cannonade = { net, game: null };

window.addEventListener('hashchange', route);
renderConn();
renderMute();
route();
net.connect();
