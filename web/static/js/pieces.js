// Drawing one square's pieces as SVG: a disc (a tile for Chess-Battle's square pieces), and on
// it the piece's picture from the art modules, chosen by the symbol the server's legend gives
// the letter. No font is used: the characters are paths too.

import { FIGURES, CHARACTERS, star } from './art/figures.js';
import { HANZI } from './art/hanzi.js';
import { units } from './geometry.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').PieceInfo} PieceInfo */
/** @typedef {'traditional'|'figures'} PieceSet */

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag
 * @param {Record<string, string|number>} attrs
 * @param {Element} parent
 */
function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.appendChild(e);
  return e;
}

/**
 * The legend entry of a letter.
 * @param {Geometry} g
 * @param {string} letter
 * @returns {PieceInfo|undefined}
 */
export function pieceInfo(g, letter) {
  return g.pieces.find((p) => p.letter === letter);
}

/**
 * Whether a colour is the legend's first (Red in every game here): it picks the character
 * of a pair (帥 or 將).
 * @param {Geometry} g
 * @param {string} colour
 */
function firstColour(g, colour) {
  return g.pieces.find((p) => p.colour !== 'unknown')?.colour === colour;
}

/**
 * Draws a picture: a character as a path, or a figure's parts.
 * @param {Element} parent
 * @param {Geometry} g
 * @param {PieceInfo} info
 * @param {PieceSet} set
 * @param {number} size the picture's width in board units
 */
export function drawArt(parent, g, info, set, size) {
  const chars = CHARACTERS[info.symbol];
  if (set === 'traditional' && chars) {
    const ch = chars[firstColour(g, info.colour) ? 0 : 1];
    el('path', { d: HANZI[ch] ?? '', class: 'ink', transform: `scale(${(size / 100).toFixed(3)})` }, parent);
    return;
  }
  const parts = FIGURES[info.symbol];
  const scale = `scale(${(size / 100).toFixed(3)})`;
  if (!parts) {
    // A symbol with no picture yet (a new game): a plain marked disc, never a font glyph.
    el('circle', { r: size * 0.2, class: 'ink' }, parent);
    return;
  }
  for (const [kind, d, turn] of parts) {
    const transform = turn ? `${scale} ${turn}` : scale;
    el('path', { d, class: kind === 'i' ? 'ink' : kind === 'f' ? 'face' : 'stroke', transform }, parent);
  }
}

/** Whether a piece's token is square (Chess-Battle's) rather than round. @param {PieceInfo} info */
function squareToken(info) {
  return info.symbol.startsWith('cb.');
}

/**
 * Draws the pieces of one square (a unit text: a piece, a face-down piece, or a Commander
 * stack, carrier first with its passengers small below it) at the origin of `grp`.
 * @param {Element} grp
 * @param {Geometry} g
 * @param {string} text
 * @param {PieceSet} set
 * @param {number} S one square's size in board units
 */
export function drawUnit(grp, g, text, set, S) {
  const list = units(text);
  if (!list.length) return;
  const [carrier, ...passengers] = list;
  const info = pieceInfo(g, carrier.letter) ?? { letter: carrier.letter, name: carrier.letter, colour: 'unknown', symbol: 'hidden' };
  if (info.colour === 'unknown') {
    const back = el('g', { class: 'pc c-hidden' }, grp);
    el('circle', { r: S * 0.43, class: 'disc' }, back);
    el('circle', { r: S * 0.3, class: 'ring' }, back);
    return;
  }
  const main = el('g', { class: `pc c-${info.colour}` }, grp);
  if (squareToken(info)) el('rect', { x: -S * 0.42, y: -S * 0.42, width: S * 0.84, height: S * 0.84, rx: 9, class: 'disc' }, main);
  else el('circle', { r: S * 0.44, class: 'disc' }, main);
  if (!squareToken(info)) el('circle', { r: S * 0.36, class: 'rim' }, main);
  const chars = !!CHARACTERS[info.symbol] && set === 'traditional';
  const art = el('g', { class: 'art', 'data-set': chars ? 'characters' : 'figures', transform: passengers.length ? `translate(0 ${-S * 0.06})` : '' }, main);
  drawArt(art, g, info, set, S * (chars ? 0.52 : 0.62));
  if (carrier.heroic) el('path', { d: star(S * 0.3, -S * 0.3, S * 0.13), class: 'hero' }, main);
  // Passengers: small discs along the bottom, in the text's order.
  passengers.forEach((u, i) => {
    const pinfo = pieceInfo(g, u.letter);
    if (!pinfo) return;
    const px = (i - (passengers.length - 1) / 2) * S * 0.4;
    const pg = el('g', { class: `pc passenger c-${pinfo.colour}`, transform: `translate(${px} ${S * 0.3})` }, grp);
    el('circle', { r: S * 0.19, class: 'disc' }, pg);
    drawArt(pg, g, pinfo, set, S * 0.26);
    if (u.heroic) el('path', { d: star(S * 0.13, -S * 0.13, S * 0.07), class: 'hero' }, pg);
  });
}

/**
 * A small standalone SVG of a piece (the legend, the deploy chooser, the move list).
 * @param {Geometry} g
 * @param {string} text a unit text
 * @param {PieceSet} set
 * @param {string} kind the board's game, for its piece colours
 * @returns {SVGSVGElement}
 */
export function pieceIcon(g, text, set, kind) {
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, 'svg'));
  svg.setAttribute('viewBox', '-30 -30 60 60');
  svg.setAttribute('class', `piece-icon board-${kind}`);
  svg.setAttribute('aria-hidden', 'true');
  drawUnit(svg, g, text, set, 60);
  return svg;
}
