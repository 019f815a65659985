// Reading what the server describes: piece colours from the legend, glyphs, unit texts and
// square indices. Drawing data only: no rule of any game is known or computed here.

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').GameKind} GameKind */

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
 * Reads a square's unit text into pieces: a parenthesised group is a stack, carrier first,
 * and `+` marks a heroic piece (Commander Chess); a single letter is one piece. Only the
 * text's form is read: which stacks may exist is the server's business.
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
