// The rules pages: texts from the rules catalogue in the page's language, and boards drawn
// by the game's own board code on the boards the server describes (`GET /api/geometry`):
// `<figure data-board="xiangqi" data-start>` is the server's start position (`GET
// /api/starts`), others carry their pieces (`data-pieces='{"e1":"K"}'`, `data-marks="e2"`).
// The piece table is the server's legend, each piece with its picture and translated name.

import { Board } from './board.js';
import { applyTheme, h, prefs } from './ui.js';
import { LANGS, lang, loadLang, pieceName, setLang, t, translateDom } from './i18n.js';
import { pieceIcon } from './pieces.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').PublicPosition} PublicPosition */

/**
 * @template T
 * @param {string} url
 * @returns {Promise<Partial<Record<GameKind, T>>>}
 */
async function getJson(url) {
  try {
    const r = await fetch(url);
    return r.ok ? await r.json() : {};
  } catch {
    return {};
  }
}

await loadLang(undefined, '');
await loadLang(lang(), 'rules');
applyTheme();
translateDom();
const main = /** @type {HTMLElement} */ (document.querySelector('main'));
const game = /** @type {GameKind} */ (main.dataset.game);
document.title = `${t(`rules.title.${game}`)} · Cannonade`;

const langs = /** @type {HTMLSelectElement} */ (h('select', { id: 'lang', 'aria-label': t('settings.language') }, ...Object.entries(LANGS).map(([v, n]) => h('option', { value: v }, n))));
langs.value = lang();
langs.addEventListener('change', () => setLang(/** @type {import('./i18n.js').Lang} */ (langs.value)));
document.getElementById('settings')?.append(langs);

/** @type {[Partial<Record<GameKind, Geometry>>, Partial<Record<GameKind, PublicPosition>>]} */
const [boards, starts] = await Promise.all([getJson('/api/geometry'), getJson('/api/starts')]);
for (const fig of document.querySelectorAll('figure[data-board]')) {
  const kind = /** @type {GameKind} */ (fig.getAttribute('data-board'));
  const g = boards[kind];
  if (!g) continue;
  const host = document.createElement('div');
  host.className = 'board-host';
  fig.prepend(host);
  const board = new Board(host, () => {});
  const start = fig.hasAttribute('data-start') ? starts[kind] : null;
  board.set({
    kind,
    geometry: g,
    pieces: start ? start.pieces : JSON.parse(fig.getAttribute('data-pieces') ?? '{}'),
    legal: null,
    lastMove: (fig.getAttribute('data-last') ?? '').split(' ').filter(Boolean),
    check: null,
    flipped: false,
    pieceSet: prefs().pieceSet,
    zones: { first: (fig.getAttribute('data-marks') ?? '').split(' ').filter(Boolean), second: [] },
    marks: [],
  });
}

// The piece table, from the legend: both sides' pictures, the name, how it moves.
const table = document.querySelector('table[data-pieces-of]');
const g = boards[game];
if (table && g) {
  const seen = new Set();
  const rows = [h('tr', {}, h('th', {}, t('rules.piece')), h('th', {}, t('rules.moves')))];
  for (const p of g.pieces) {
    if (p.colour === 'unknown' || seen.has(p.symbol)) continue;
    seen.add(p.symbol);
    const both = g.pieces.filter((q) => q.symbol === p.symbol);
    const names = both.map((q) => pieceName(q.symbol, q.colour)).filter((n, i, a) => a.indexOf(n) === i).join(' / ');
    rows.push(h('tr', { 'data-symbol': p.symbol },
      h('td', { class: 'piece-cell' }, ...both.map((q) => pieceIcon(g, q.letter, prefs().pieceSet, game)), h('span', {}, names)),
      h('td', {}, t(`rules.move.${p.symbol}`))));
  }
  table.replaceChildren(...rows);
}
