// Illustrations for the rules pages: small boards drawn by the game's own board code from
// `<figure data-board="…" data-pieces='{"e1":"K"}' data-marks="e2 e3">` elements. The
// boards here are documentation; the game screens draw what the server sends.

import { Board } from './board.js';
import { commanderGeometry, completeGeometry } from './geometry.js';
import { prefs } from './ui.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').GameKind} GameKind */

/**
 * @param {number} n
 * @param {number} [from]
 */
const seq = (n, from = 0) => Array.from({ length: n }, (_, i) => i + from);
/** @param {number} n */
const files = (n) => seq(n).map((i) => String.fromCharCode(97 + i));

/** @type {Record<GameKind, () => Geometry>} */
const BOARDS = {
  xiangqi: () => {
    const f = files(9);
    const r = seq(10).map(String);
    const palace = (/** @type {number} */ lo) => f.slice(3, 6).flatMap((x) => r.slice(lo, lo + 3).map((y) => x + y));
    return {
      game: 'xiangqi', layout: 'points', files: 9, ranks: 10, file_labels: f, rank_labels: r, missing: [],
      regions: [{ kind: 'palace', squares: palace(0), diagonals: true }, { kind: 'palace', squares: palace(7), diagonals: true }],
      river_after_rank: '4', pieces: [],
    };
  },
  banqi: () => ({
    game: 'banqi', layout: 'cells', files: 8, ranks: 4, file_labels: files(8), rank_labels: seq(4, 1).map(String),
    missing: [], regions: [], river_after_rank: null, pieces: [{ letter: 'X', name: 'face-down', colour: 'unknown' }],
  }),
  chessbattle: () => {
    const f = files(12);
    const r = seq(12, 1).map(String);
    const missing = f.flatMap((x, i) => r.filter((_, j) => (i < 2 || i > 9) && (j < 2 || j > 9)).map((y) => x + y));
    return { game: 'chessbattle', layout: 'cells', files: 12, ranks: 12, file_labels: f, rank_labels: r, missing, regions: [], river_after_rank: null, pieces: [] };
  },
  commander: commanderGeometry,
};

for (const fig of document.querySelectorAll('figure[data-board]')) {
  const kind = /** @type {GameKind} */ (fig.getAttribute('data-board'));
  const make = BOARDS[kind];
  if (!make) continue;
  const g = completeGeometry(kind, make());
  if (kind === 'xiangqi' || kind === 'banqi') {
    const colours = ['red', 'black'];
    for (const [i, c] of colours.entries())
      for (const l of 'KABNRCP') g.pieces.push({ letter: i ? l.toLowerCase() : l, name: l, colour: c });
  }
  if (kind === 'chessbattle')
    for (const [i, c] of ['red', 'white'].entries())
      for (const l of 'HBTGMCS') g.pieces.push({ letter: i ? l.toLowerCase() : l, name: l, colour: c });
  const host = document.createElement('div');
  host.className = 'board-host';
  fig.prepend(host);
  const board = new Board(host, () => {});
  board.set({
    kind,
    geometry: g,
    pieces: JSON.parse(fig.getAttribute('data-pieces') ?? '{}'),
    legal: null,
    lastMove: (fig.getAttribute('data-last') ?? '').split(' ').filter(Boolean),
    check: null,
    flipped: false,
    pieceSet: prefs().pieceSet,
    zones: { first: (fig.getAttribute('data-marks') ?? '').split(' ').filter(Boolean), second: [] },
    marks: [],
  });
}
