// Illustrations for the rules pages: small boards drawn by the game's own board code from
// `<figure data-board="…" data-pieces='{"e1":"K"}' data-marks="e2 e3">` elements, on the
// boards the server describes (`GET /api/geometry`). The boards here are documentation; the
// game screens draw what the server sends.

import { Board } from './board.js';
import { prefs } from './ui.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').GameKind} GameKind */

/** @returns {Promise<Partial<Record<GameKind, Geometry>>>} */
async function geometries() {
  try {
    const r = await fetch('/api/geometry');
    return r.ok ? await r.json() : {};
  } catch {
    return {};
  }
}

const boards = await geometries();
for (const fig of document.querySelectorAll('figure[data-board]')) {
  const kind = /** @type {GameKind} */ (fig.getAttribute('data-board'));
  const g = boards[kind];
  if (!g) continue;
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
