// Small helpers shared by the screens: elements, names, preferences, the local list of games.

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

/** @type {Record<GameKind, string>} */
export const GAME_NAMES = { xiangqi: 'Xiangqi', banqi: 'Banqi', chessbattle: 'Chess-Battle', commander: 'Commander Chess' };

/**
 * What a seat is called in a game: its colour, or first/second in Banqi (colours come with
 * the first flip).
 * @param {Snapshot} s
 * @param {Seat} seat
 */
export function seatName(s, seat) {
  if (s.kind === 'banqi') return seat === 'first' ? 'First player' : 'Second player';
  /** @type {Record<string, [string, string]>} */
  const names = { xiangqi: ['Red', 'Black'], chessbattle: ['Red', 'White'], commander: ['Red', 'Blue'] };
  const pair = names[s.kind] ?? ['First', 'Second'];
  return seat === 'first' ? pair[0] : pair[1];
}

/** @param {Snapshot} s */
export function resultText(s) {
  const r = s.result;
  if (!r) return '';
  const why = r.reason.replace(/[-_]/g, ' ');
  if (!r.winner) return r.reason === 'aborted' ? 'Game aborted.' : `Draw (${why}).`;
  return `${seatName(s, r.winner)} wins (${why}).`;
}

/**
 * @typedef {object} Prefs
 * @property {'hanzi'|'latin'} pieceSet
 */

/** @returns {Prefs} */
export function prefs() {
  try {
    const p = JSON.parse(localStorage.getItem('cannonade_prefs') ?? '{}');
    return { pieceSet: p.pieceSet === 'latin' ? 'latin' : 'hanzi' };
  } catch {
    return { pieceSet: 'hanzi' };
  }
}

/** @param {Prefs} p */
export function savePrefs(p) {
  localStorage.setItem('cannonade_prefs', JSON.stringify(p));
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
 * Keeps this game in the device's list of games played or watched (the server has no list
 * of a session's past games yet; see docs/web-client.md).
 * @param {Snapshot} s
 */
export function rememberGame(s) {
  const list = pastGames().filter((g) => g.id !== s.game);
  list.unshift({
    id: s.game,
    kind: s.kind,
    players: [s.players[0].name, s.players[1].name],
    result: s.result ? resultText(s) : 'in progress',
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
 * Keeps the positions of a game seen on this device, so it can be replayed later (the
 * snapshot has only the start and the current position; request 6 in docs/web-client.md).
 * The last ten games are kept.
 * @param {string} id
 * @param {string[]} moves the move texts, to tell later whether the positions still apply
 * @param {(import('./types.js').PublicPosition|null)[]} positions
 */
export function savePositions(id, moves, positions) {
  try {
    const index = JSON.parse(localStorage.getItem('cannonade_pos_index') ?? '[]').filter((/** @type {string} */ g) => g !== id);
    index.unshift(id);
    for (const old of index.splice(10)) localStorage.removeItem(`cannonade_pos_${old}`);
    localStorage.setItem('cannonade_pos_index', JSON.stringify(index));
    localStorage.setItem(`cannonade_pos_${id}`, JSON.stringify({ moves, positions }));
  } catch {
    // A full storage only loses replays, never the game.
  }
}

/**
 * The saved positions of a game that still apply to `moves`: those after a common beginning
 * of both move lists (a takeback elsewhere makes later ones stale).
 * @param {string} id
 * @param {string[]} moves
 * @returns {(import('./types.js').PublicPosition|null)[]}
 */
export function loadPositions(id, moves) {
  try {
    const saved = JSON.parse(localStorage.getItem(`cannonade_pos_${id}`) ?? '{}');
    if (!Array.isArray(saved.moves) || !Array.isArray(saved.positions)) return [];
    let same = 0;
    while (same < moves.length && saved.moves[same] === moves[same]) same += 1;
    return saved.positions.slice(0, same + 1);
  } catch {
    return [];
  }
}
