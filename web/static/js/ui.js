// Small helpers shared by the screens: elements, names, preferences, the local list of games.

import { t } from './i18n.js';

/** @typedef {import('./types.js').Snapshot} Snapshot */
/** @typedef {import('./types.js').Seat} Seat */
/** @typedef {import('./types.js').GameKind} GameKind */

/**
 * Makes an element.
 * @param {string} tag
 * @param {Record<string, string>} attrs
 * @param {...(Node|string)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

/** The games, in the order the home screen offers them. @type {GameKind[]} */
export const GAMES = ['xiangqi', 'banqi', 'chessbattle', 'commander'];

/** A game's name in the page's language. @param {string} kind */
export function gameName(kind) {
  return t(`game.${kind}`);
}

/**
 * A seat's colour as the server's position says (`null` in Banqi before the first flip).
 * @param {Snapshot} s
 * @param {Seat} seat
 * @returns {string|null}
 */
export function seatColour(s, seat) {
  return s.position.colours?.[seat === 'first' ? 0 : 1] ?? null;
}

/**
 * What a seat is called in a game: its colour, or first/second player while it has none.
 * @param {Snapshot} s
 * @param {Seat} seat
 */
export function seatName(s, seat) {
  const colour = seatColour(s, seat);
  if (colour) return t(`colour.${colour}`);
  return t(seat === 'first' ? 'seat.first' : 'seat.second');
}

/** A result's reason in the page's language. @param {string} reason */
export function reasonText(reason) {
  const key = `reason.${reason.replace(/-/g, '_')}`;
  const text = t(key);
  return text === key ? reason.replace(/[-_]/g, ' ') : text;
}

/** @param {Snapshot} s */
export function resultText(s) {
  const r = s.result;
  if (!r) return '';
  const why = reasonText(r.reason);
  if (!r.winner) return r.reason === 'aborted' ? t('result.aborted') : t('result.draw', { why });
  return t('result.wins', { seat: seatName(s, r.winner), why });
}

/**
 * @typedef {object} Prefs
 * @property {'traditional'|'figures'} pieceSet Xiangqi's and Banqi's pieces: characters or pictures
 * @property {'wood'|'slate'} theme the board's colours
 */

/** @returns {Prefs} */
export function prefs() {
  try {
    const p = JSON.parse(localStorage.getItem('cannonade_prefs') ?? '{}');
    return { pieceSet: p.pieceSet === 'figures' ? 'figures' : 'traditional', theme: p.theme === 'slate' ? 'slate' : 'wood' };
  } catch {
    return { pieceSet: 'traditional', theme: 'wood' };
  }
}

/** @param {Prefs} p */
export function savePrefs(p) {
  localStorage.setItem('cannonade_prefs', JSON.stringify(p));
  applyTheme();
}

/** Sets the page's board theme from the preferences. */
export function applyTheme() {
  document.documentElement.dataset.theme = prefs().theme;
}

/**
 * @typedef {object} PastGame
 * @property {string} id
 * @property {GameKind} kind
 * @property {[string, string]} players
 * @property {string} result
 * @property {number} moves
 * @property {string} role
 * @property {number} at
 */

/** @returns {PastGame[]} */
export function pastGames() {
  try {
    const list = JSON.parse(localStorage.getItem('cannonade_games') ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Keeps this game in the device's list of games played or watched: what "My games" shows
 * when the server's list (`/api/my-games`) cannot be had, and the games only watched.
 * @param {Snapshot} s
 */
export function rememberGame(s) {
  const list = pastGames().filter((g) => g.id !== s.game);
  list.unshift({
    id: s.game,
    kind: s.kind,
    players: [s.players[0].name, s.players[1].name],
    result: s.result ? resultText(s) : t('past.in_progress'),
    moves: s.moves.length,
    role: s.you,
    at: Date.now(),
  });
  localStorage.setItem('cannonade_games', JSON.stringify(list.slice(0, 50)));
}

/**
 * Offers a text file for download.
 * @param {string} name
 * @param {string} text
 */
export function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/**
 * A link to a player's profile page (`/@/{name}`), the name as its text: never markup.
 * @param {string} name
 */
export function profileLink(name) {
  return h('a', { href: `/@/${encodeURIComponent(name)}`, class: 'player-link', 'data-profile': name }, name);
}

/**
 * A rating as lichess shows it: provisional ones (deviation above 110) with `?`.
 * @param {{rating: number, provisional: boolean}} r
 */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/** The speed categories, fastest first, as the server names them. */
export const SPEEDS = /** @type {const} */ (['bullet', 'blitz', 'rapid', 'classical', 'correspondence']);

/**
 * The speed category of a clock, as the server's `Speed::of` counts it: the initial time
 * and 40 increments, or `correspondence` for days per move; `null` for an untimed game.
 * @param {import('./types.js').TimeControl} c
 */
export function speedOf(c) {
  if (c.days_per_move) return 'correspondence';
  if (!c.initial_ms && !c.increment_ms) return null;
  const minutes = (c.initial_ms + 40 * c.increment_ms) / 60000;
  return minutes < 3 ? 'bullet' : minutes < 8 ? 'blitz' : minutes < 25 ? 'rapid' : 'classical';
}

/** A clock as people read it. @param {import('./types.js').TimeControl} c */
export function clockText(c) {
  if (c.days_per_move) return t(c.days_per_move === 1 ? 'clock.day' : 'clock.days', { n: c.days_per_move });
  return c.initial_ms ? t('clock.minutes', { m: c.initial_ms / 60000, s: c.increment_ms / 1000 }) : t('clock.none');
}

/** A speed category's name in the page's language. @param {string} speed */
export function speedName(speed) {
  const names = { bullet: t('speed.bullet'), blitz: t('speed.blitz'), rapid: t('speed.rapid'), classical: t('speed.classical'), correspondence: t('speed.correspondence') };
  return names[/** @type {keyof typeof names} */ (speed)] ?? speed;
}

/**
 * A screen of one game whose address names the game and its settings after the screen's
 * name (`#/analysis/xiangqi?options=…&fen=…`): the analysis board and the board editor.
 */
export class GameScreen {
  /**
   * @param {HTMLElement} root
   * @param {import('./net.js').Net} net
   * @param {string} path the address after the screen's name
   */
  constructor(root, net, path) {
    this.root = root;
    this.net = net;
    const [name, query] = path.split('?');
    /** @type {GameKind} the game named (Xiangqi when the page knows none by that name) */
    this.kind = GAMES.includes(/** @type {GameKind} */ (name)) ? /** @type {GameKind} */ (name) : 'xiangqi';
    this.query = new URLSearchParams(query ?? '');
    /** the rule options */
    this.options = this.query.get('options') ?? '';
  }
}

/**
 * The replay's four buttons (start, back, forward, end) into `box`.
 * @param {HTMLElement} box
 * @param {(ply: number) => void} go shows a ply
 * @param {() => number} shown the ply shown when a button is pressed
 * @param {() => number} last the last ply when a button is pressed
 */
export function replayButtons(box, go, shown, last) {
  const button = (/** @type {string} */ label, /** @type {string} */ name, /** @type {() => number} */ to) => {
    const b = h('button', { type: 'button', class: 'secondary', 'data-nav': name, 'aria-label': t(`replay.nav_${name}`), title: t(`replay.nav_${name}`) }, label);
    b.addEventListener('click', () => go(to()));
    return b;
  };
  box.replaceChildren(
    button('|◀', 'start', () => 0),
    button('◀', 'back', () => shown() - 1),
    button('▶', 'forward', () => shown() + 1),
    button('▶|', 'end', last),
  );
}
