// Boards as the server describes them, completed where the protocol does not say enough yet
// (see "Requests to the server" in docs/web-client.md). Everything here is drawing data:
// which squares exist and how to colour them. No rule of any game is computed here, except
// the Commander air-defence zones as a stand-in until the server sends them (marked below).

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').PieceInfo} PieceInfo */

/**
 * @param {number} n
 * @returns {string[]}
 */
const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
/**
 * @param {number} from
 * @param {number} n
 */
const numbers = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

/**
 * @param {[string, string]} colours
 * @param {[string, string][]} kinds
 * @returns {PieceInfo[]}
 */
function legend(colours, kinds) {
  return colours.flatMap((colour, i) =>
    kinds.map(([l, name]) => ({ letter: i === 0 ? l.toUpperCase() : l.toLowerCase(), name, colour })),
  );
}

/**
 * Commander Chess's board, drawn from shared/rules/commander.md section 2 until the server's
 * geometry describes it: water on files a–b, the coast on file c and the river mouth, the
 * river between ranks 6 and 7 with fords on f and h.
 * @returns {Geometry}
 */
export function commanderGeometry() {
  const files = letters(11);
  const ranks = numbers(1, 12);
  const water = files.slice(0, 2).flatMap((f) => ranks.map((r) => f + r));
  const coast = [...ranks.map((r) => 'c' + r), 'd6', 'e6', 'd7', 'e7'];
  return {
    game: 'commander',
    layout: 'points',
    files: 11,
    ranks: 12,
    file_labels: files,
    rank_labels: ranks,
    missing: [],
    regions: [
      { kind: 'water', squares: water, diagonals: false },
      { kind: 'coast', squares: coast, diagonals: false },
    ],
    river_after_rank: '6',
    river: { after_rank: '6', files: files.slice(2), fords: ['f', 'h'] },
    pieces: legend(
      ['red', 'blue'],
      [
        ['C', 'commander'], ['I', 'infantry'], ['T', 'tank'], ['M', 'militia'],
        ['E', 'engineer'], ['A', 'artillery'], ['G', 'anti-air gun'], ['S', 'missile'],
        ['F', 'air force'], ['N', 'navy'], ['H', 'headquarters'],
      ],
    ),
    // Stand-in (rules 8.1): zone radius by letter until positions carry their zones.
    air_defence: { G: 1, S: 2, N: 1 },
  };
}

/**
 * The geometry to draw: the server's, with the parts it does not send yet filled in.
 * @param {GameKind} kind
 * @param {Geometry|null} given
 * @returns {Geometry}
 */
export function completeGeometry(kind, given) {
  if (!given) {
    if (kind === 'commander') return commanderGeometry();
    throw new Error(`the server sent no board for ${kind}`);
  }
  const g = { ...given };
  if (!g.river && g.river_after_rank) {
    // Xiangqi's river spans the whole board; its edge lines cross it.
    g.river = { after_rank: g.river_after_rank, files: g.file_labels, fords: [] };
  }
  return g;
}

/** Piece colours per seat, from the legend (first seat's colour first). */
/** @param {Geometry} g */
export function seatColours(g) {
  /** @type {string[]} */
  const colours = [];
  for (const p of g.pieces) if (p.colour !== 'unknown' && !colours.includes(p.colour)) colours.push(p.colour);
  return /** @type {[string, string]} */ ([colours[0] ?? 'red', colours[1] ?? 'black']);
}

/**
 * The glyphs of a piece letter: Chinese characters or Latin letters for the Chinese games,
 * letters for the others.
 * @param {GameKind} kind
 * @param {string} letter the wire letter (upper case = first seat / Red)
 * @param {'hanzi'|'latin'} set
 */
export function glyph(kind, letter, set) {
  const red = letter === letter.toUpperCase();
  const l = letter.toUpperCase();
  if (kind === 'xiangqi' || kind === 'banqi') {
    if (set === 'hanzi') {
      /** @type {Record<string, [string, string]>} */
      const hanzi = {
        K: ['帥', '將'], A: ['仕', '士'], B: ['相', '象'], N: ['傌', '馬'],
        R: ['俥', '車'], C: ['炮', '砲'], P: ['兵', '卒'],
      };
      const pair = hanzi[l];
      if (pair) return red ? pair[0] : pair[1];
    }
    // WXF letters: the ones the move list uses.
    /** @type {Record<string, string>} */
    const wxf = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
    return wxf[l] ?? l;
  }
  return l;
}

/**
 * Reads a square's piece text into units: Commander stacks `(N+FT)` are a carrier and
 * passengers, `+` marks a heroic piece; every other game has one letter.
 * @param {string} text
 * @returns {{letter: string, heroic: boolean}[]}
 */
export function units(text) {
  const out = [];
  let heroic = false;
  for (const ch of text) {
    if (ch === '+') heroic = true;
    else if (ch === '(' || ch === ')') continue;
    else {
      out.push({ letter: ch, heroic });
      heroic = false;
    }
  }
  return out;
}

/**
 * Stand-in for the server's air-defence squares (shared/rules/commander.md 8.1–8.2): every
 * point within the radius of a carrier or lone Anti-Air, Missile or Navy, heroic +1.
 * @param {Geometry} g
 * @param {Record<string, string>} pieces
 * @returns {{first: string[], second: string[]}}
 */
export function airDefence(g, pieces) {
  /** @type {{first: string[], second: string[]}} */
  const out = { first: [], second: [] };
  const radii = g.air_defence;
  if (!radii) return out;
  for (const [sq, text] of Object.entries(pieces)) {
    const [carrier] = units(text);
    if (!carrier) continue;
    const r0 = radii[carrier.letter.toUpperCase()];
    if (!r0) continue;
    const r = r0 + (carrier.heroic ? 1 : 0);
    const seat = carrier.letter === carrier.letter.toUpperCase() ? 'first' : 'second';
    const [fx, ry] = squareIndex(g, sq);
    for (let x = 0; x < g.files; x++)
      for (let y = 0; y < g.ranks; y++)
        if ((x - fx) ** 2 + (y - ry) ** 2 <= r * r) {
          const name = g.file_labels[x] + g.rank_labels[y];
          if (!out[seat].includes(name)) out[seat].push(name);
        }
  }
  return out;
}

/**
 * File and rank index of a square name.
 * @param {Geometry} g
 * @param {string} sq
 * @returns {[number, number]}
 */
export function squareIndex(g, sq) {
  const m = /^([a-z])(\d+)$/.exec(sq);
  if (!m) return [-1, -1];
  return [g.file_labels.indexOf(m[1]), g.rank_labels.indexOf(m[2])];
}

/**
 * Stand-in until the server lists Commander's pieces (request 2 in docs/web-client.md): the
 * placement field of the position text read into unit texts by square, ranks top down,
 * digits as runs of empty points, `(…)` a stack, `+` a hero.
 * @param {Geometry} g
 * @param {string} fen
 * @returns {Record<string, string>}
 */
export function readPlacement(g, fen) {
  /** @type {Record<string, string>} */
  const out = {};
  const rows = (fen.split(' ')[0] ?? '').split('/');
  rows.forEach((row, i) => {
    const rank = g.rank_labels[g.ranks - 1 - i];
    let file = 0;
    let run = '';
    let unit = '';
    let open = false;
    for (const ch of row) {
      if (/\d/.test(ch) && !open) {
        run += ch;
        continue;
      }
      file += Number(run || 0);
      run = '';
      unit += ch;
      if (ch === '(') open = true;
      else if (ch === ')') open = false;
      if (open || ch === '+' || ch === '(') continue;
      if (file < g.files && rank !== undefined) out[g.file_labels[file] + rank] = unit;
      unit = '';
      file += 1;
    }
  });
  return out;
}
