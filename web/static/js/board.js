// An SVG board drawn from a geometry and fed the legal moves by the server. It knows no rule:
// a move is a path of squares from the server's list, picked by clicks or a drag; when
// several listed moves share a path the player picks one by its text.

import { glyph, seatColours, squareIndex, units } from './geometry.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').LegalMove} LegalMove */
/** @typedef {import('./types.js').GameKind} GameKind */

const SVG = 'http://www.w3.org/2000/svg';
const S = 60; // one file/rank step in SVG units

/**
 * @typedef {object} BoardState
 * @property {GameKind} kind
 * @property {Geometry} geometry
 * @property {Record<string, string>} pieces
 * @property {LegalMove[]|null} legal moves the user may pick now, null when not their turn
 * @property {string[]} lastMove squares of the last move
 * @property {string|null} check the square of a piece in check
 * @property {boolean} flipped
 * @property {'hanzi'|'latin'} pieceSet
 * @property {{first: string[], second: string[]}} zones squares to shade as each seat's air-defence zones
 * @property {string[]} marks squares to mark (a proposal, a tally's favourite)
 */

/**
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string|number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElementTagNameMap[K]}
 */
function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  /**
   * @param {HTMLElement} host
   * @param {(mv: LegalMove) => void} onMove
   */
  constructor(host, onMove) {
    this.host = host;
    this.onMove = onMove;
    /** @type {BoardState|null} */
    this.state = null;
    /** @type {string[]} the squares clicked so far */
    this.path = [];
    this.svg = el('svg', { class: 'board', role: 'group' });
    host.appendChild(this.svg);
    this.picker = document.createElement('div');
    this.picker.className = 'picker';
    this.picker.hidden = true;
    host.appendChild(this.picker);
    /** @type {{from: string, ghost: SVGGElement, moved: boolean, x0: number, y0: number}|null} */
    this.drag = null;
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('keydown', (e) => {
      const sq = /** @type {Element} */ (e.target).getAttribute?.('data-square');
      if (sq && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        this.click(sq);
      }
    });
  }

  /** @param {BoardState} state */
  set(state) {
    // The first moment a person can act on the board, for the load measurement.
    if (state.legal?.length && !performance.getEntriesByName('board-interactive').length) performance.mark('board-interactive');
    const legalChanged = this.state?.legal !== state.legal;
    this.state = state;
    if (legalChanged) this.reset();
    this.draw();
  }

  reset() {
    this.path = [];
    this.picker.hidden = true;
  }

  // ---- geometry -------------------------------------------------------------------------

  get cells() {
    return this.state?.geometry.layout === 'cells';
  }

  get margin() {
    return this.cells ? S * 0.6 : S;
  }

  /**
   * The centre of a square in SVG units.
   * @param {number} f file index
   * @param {number} r rank index
   * @returns {[number, number]}
   */
  xy(f, r) {
    const g = /** @type {BoardState} */ (this.state).geometry;
    const flipped = /** @type {BoardState} */ (this.state).flipped;
    const x = flipped ? g.files - 1 - f : f;
    const y = flipped ? r : g.ranks - 1 - r;
    const half = this.cells ? S / 2 : 0;
    return [this.margin + x * S + half, this.margin + y * S + half];
  }

  /** @param {string} sq */
  at(sq) {
    const g = /** @type {BoardState} */ (this.state).geometry;
    const [f, r] = squareIndex(g, sq);
    return this.xy(f, r);
  }

  /** @param {number} x @param {number} y SVG units -> the nearest square, if close enough */
  squareAt(x, y) {
    const st = /** @type {BoardState} */ (this.state);
    const g = st.geometry;
    const half = this.cells ? S / 2 : 0;
    let fx = Math.round((x - this.margin - half) / S);
    let ry = Math.round((y - this.margin - half) / S);
    if (fx < 0 || ry < 0 || fx >= g.files || ry >= g.ranks) return null;
    const f = st.flipped ? g.files - 1 - fx : fx;
    const r = st.flipped ? ry : g.ranks - 1 - ry;
    const sq = g.file_labels[f] + g.rank_labels[r];
    return g.missing.includes(sq) ? null : sq;
  }

  /** @param {PointerEvent} e */
  svgPoint(e) {
    const pt = new DOMPoint(e.clientX, e.clientY);
    const m = this.svg.getScreenCTM();
    const p = m ? pt.matrixTransform(m.inverse()) : pt;
    return [p.x, p.y];
  }

  // ---- picking --------------------------------------------------------------------------

  /** @param {string[]} path */
  candidates(path) {
    const legal = this.state?.legal ?? [];
    return legal.filter((m) => path.every((sq, i) => m.squares[i] === sq));
  }

  /** The squares a click may go to next. */
  nextSquares() {
    const n = this.path.length;
    if (n === 0) return new Set();
    return new Set(this.candidates(this.path).filter((m) => m.squares.length > n).map((m) => m.squares[n]));
  }

  /** @param {string} sq */
  click(sq) {
    const st = this.state;
    if (!st || !st.legal) return;
    this.picker.hidden = true;
    if (this.path.length === 1 && this.path[0] === sq) {
      // A second click on the selected square: a one-square move there (a Banqi flip), or
      // deselect.
      const exact = this.candidates([sq]).filter((m) => m.squares.length === 1);
      if (exact.length && this.candidates([sq]).length > exact.length) return this.choose(exact, [sq]);
      this.path = [];
      return this.draw();
    }
    let path = [...this.path, sq];
    if (!this.candidates(path).length && this.path.length) {
      // A click on the final square of a longer move (a chain's last landing) picks it
      // without clicking every landing in between.
      const ends = this.candidates(this.path).filter((m) => m.squares.length > path.length && m.squares[m.squares.length - 1] === sq);
      if (ends.length === 1) {
        this.path = [];
        this.onMove(ends[0]);
        return;
      }
      if (ends.length > 1) return this.choose(ends, this.path);
    }
    if (!this.candidates(path).length) path = [sq];
    const cands = this.candidates(path);
    if (!cands.length) {
      this.path = [];
      return this.draw();
    }
    const exact = cands.filter((m) => m.squares.length === path.length);
    const longer = cands.filter((m) => m.squares.length > path.length);
    if (exact.length === 1 && !longer.length) {
      this.path = [];
      this.onMove(exact[0]);
      return;
    }
    this.path = path;
    this.draw();
    if (exact.length) this.choose(exact, path, longer.length > 0);
  }

  /**
   * Shows the moves that share the clicked path so the player picks one by its text.
   * @param {LegalMove[]} moves
   * @param {string[]} path
   * @param {boolean} [more] whether the path may also go on (a longer deploy or chain)
   */
  choose(moves, path, more = false) {
    this.picker.replaceChildren();
    const title = document.createElement('p');
    title.textContent = more ? 'Stop here, or click the next square:' : 'Which move?';
    this.picker.appendChild(title);
    for (const m of moves) {
      const b = document.createElement('button');
      b.textContent = m.display ?? m.mv;
      b.dataset.mv = m.mv;
      b.addEventListener('click', () => {
        this.reset();
        this.onMove(m);
      });
      this.picker.appendChild(b);
    }
    const cancel = document.createElement('button');
    cancel.textContent = 'Cancel';
    cancel.className = 'secondary';
    cancel.addEventListener('click', () => {
      this.reset();
      this.draw();
    });
    this.picker.appendChild(cancel);
    this.picker.classList.toggle('more', more);
    this.picker.hidden = false;
    this.path = path;
  }

  /**
   * Picks a move by typed coordinates (`h2e2`, `h2 e2`, `d2`) or its exact text.
   * @param {string} text
   * @returns {string} an error to show, or '' when a move was made or offered
   */
  typed(text) {
    const legal = this.state?.legal;
    if (!legal) return 'It is not your move.';
    const t = text.trim();
    const byText = legal.filter((m) => m.mv === t || m.display === t);
    if (byText.length === 1) {
      this.onMove(byText[0]);
      return '';
    }
    const squares = t.toLowerCase().match(/[a-z]\d+/g) ?? [];
    if (!squares.length) return 'Type squares such as h2e2.';
    const exact = legal.filter((m) => m.squares.join() === squares.join());
    if (exact.length === 1) {
      this.onMove(exact[0]);
      return '';
    }
    if (exact.length > 1) {
      this.choose(exact, squares);
      return '';
    }
    return `No legal move ${squares.join('-')}.`;
  }

  // ---- pointer --------------------------------------------------------------------------

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (!this.state?.legal) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (!sq) return;
    e.preventDefault();
    const starts = this.path.length === 0 || this.candidates([sq]).length > 0;
    const piece = this.svg.querySelector(`g.piece[data-square="${sq}"]`);
    if (piece && starts && this.candidates([sq]).some((m) => m.squares.length > 1)) {
      const ghost = /** @type {SVGGElement} */ (piece.cloneNode(true));
      ghost.classList.add('ghost');
      ghost.style.pointerEvents = 'none';
      this.drag = { from: sq, ghost, moved: false, x0: x, y0: y };
      this.svg.setPointerCapture?.(e.pointerId);
    }
    this.click(sq);
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    const [x, y] = this.svgPoint(e);
    if (!d.moved && Math.hypot(x - d.x0, y - d.y0) < S / 5) return;
    if (!d.moved) {
      d.moved = true;
      this.svg.appendChild(d.ghost);
    }
    const [cx, cy] = this.at(d.from);
    d.ghost.setAttribute('transform', `translate(${x - cx} ${y - cy})`);
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost.remove();
    if (!d.moved) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (sq && sq !== d.from) this.click(sq);
  }

  // ---- drawing --------------------------------------------------------------------------

  draw() {
    const st = this.state;
    if (!st) return;
    const g = st.geometry;
    const m = this.margin;
    const span = (/** @type {number} */ n) => (this.cells ? n * S : (n - 1) * S);
    const W = span(g.files) + 2 * m;
    const H = span(g.ranks) + 2 * m;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', `board board-${st.kind} layout-${g.layout}`);
    svg.setAttribute('aria-label', `${st.kind} board${st.flipped ? ', flipped' : ''}`);
    el('rect', { x: 0, y: 0, width: W, height: H, class: 'frame', rx: 8 }, svg);
    const base = el('g', { class: 'base' }, svg);
    if (this.cells) this.drawCells(base);
    else this.drawPoints(base);
    this.drawLabels(base);
    const marks = el('g', { class: 'marks' }, svg);
    for (const sq of st.zones.first) this.square(marks, sq, 'zone first');
    for (const sq of st.zones.second) this.square(marks, sq, 'zone second');
    st.lastMove.forEach((sq, i) => this.square(marks, sq, i === st.lastMove.length - 1 ? 'last to' : 'last'));
    for (const sq of st.marks) this.square(marks, sq, 'proposal');
    if (st.check) this.square(marks, st.check, 'check');
    if (this.path.length) this.square(marks, this.path[this.path.length - 1], 'selected');
    for (const sq of this.path.slice(0, -1)) this.square(marks, sq, 'selected');
    const pieces = el('g', { class: 'pieces' }, svg);
    const [redColour] = seatColours(g);
    for (const [sq, text] of Object.entries(st.pieces)) this.drawPiece(pieces, sq, text, redColour);
    const dests = el('g', { class: 'dests' }, svg);
    for (const sq of this.nextSquares()) {
      const [x, y] = this.at(sq);
      el('circle', { cx: x, cy: y, r: st.pieces[sq] ? S * 0.44 : S * 0.13, class: st.pieces[sq] ? 'dest capture' : 'dest', 'data-dest': sq }, dests);
    }
    // Invisible hit targets, one per square, focusable for keyboards and named for screen readers.
    const hits = el('g', { class: 'hits' }, svg);
    const origins = new Set((st.legal ?? []).map((mv) => mv.squares[0]));
    for (let f = 0; f < g.files; f++)
      for (let r = 0; r < g.ranks; r++) {
        const sq = g.file_labels[f] + g.rank_labels[r];
        if (g.missing.includes(sq)) continue;
        const [x, y] = this.xy(f, r);
        const text = st.pieces[sq];
        const name = text ? this.pieceName(text) : 'empty';
        const actionable = origins.has(sq) || this.nextSquares().has(sq);
        el('rect', {
          x: x - S / 2, y: y - S / 2, width: S, height: S, class: 'hit', 'data-square': sq,
          role: 'button', tabindex: actionable ? 0 : -1, 'aria-label': `${sq}, ${name}`,
        }, hits);
      }
  }

  /** @param {string} text */
  pieceName(text) {
    const g = /** @type {BoardState} */ (this.state).geometry;
    return units(text)
      .map((u) => {
        const info = g.pieces.find((p) => p.letter === u.letter);
        if (!info) return u.letter;
        return info.colour === 'unknown' ? info.name : `${u.heroic ? 'heroic ' : ''}${info.colour} ${info.name}`;
      })
      .join(' carrying ');
  }

  /**
   * A square highlight.
   * @param {Element} parent
   * @param {string} sq
   * @param {string} kind
   */
  square(parent, sq, kind) {
    const [x, y] = this.at(sq);
    if (this.cells) el('rect', { x: x - S / 2, y: y - S / 2, width: S, height: S, class: `hl ${kind}` }, parent);
    else el('circle', { cx: x, cy: y, r: S * 0.47, class: `hl ${kind}` }, parent);
  }

  /** @param {Element} p */
  drawCells(p) {
    const st = /** @type {BoardState} */ (this.state);
    const g = st.geometry;
    for (let f = 0; f < g.files; f++)
      for (let r = 0; r < g.ranks; r++) {
        const sq = g.file_labels[f] + g.rank_labels[r];
        if (g.missing.includes(sq)) continue;
        const [x, y] = this.xy(f, r);
        // Chess-Battle's squares alternate like a chessboard (black when file + rank is even,
        // a1 counted as 1 + 1); Banqi's are plain.
        const shade = st.kind === 'chessbattle' ? ((f + r) % 2 === 0 ? 'dark' : 'light') : 'plain';
        el('rect', { x: x - S / 2, y: y - S / 2, width: S, height: S, class: `cell ${shade}` }, p);
      }
  }

  /** @param {Element} p */
  drawPoints(p) {
    const st = /** @type {BoardState} */ (this.state);
    const g = st.geometry;
    // Terrain: a tinted cell around each point of a region (land keeps the board's colour;
    // palaces are drawn by their lines).
    for (const region of g.regions) {
      if (region.kind === 'palace' || region.kind === 'land') continue;
      for (const sq of region.squares) {
        const [x, y] = this.at(sq);
        el('rect', { x: x - S / 2, y: y - S / 2, width: S, height: S, class: `terrain ${region.kind}` }, p);
      }
    }
    const [x0, y0] = this.xy(0, 0);
    const [x1, y1] = this.xy(g.files - 1, g.ranks - 1);
    const river = g.river;
    const after = river ? g.rank_labels.indexOf(river.after_rank) : -1;
    if (river && after >= 0) {
      const fs = river.files.map((f) => g.file_labels.indexOf(f));
      const [ax, ay] = this.xy(Math.min(...fs), after);
      const [bx, by] = this.xy(Math.max(...fs), after + 1);
      const wide = river.files.length < g.files ? S / 2 : 0; // a river that opens into the sea
      const left = Math.min(ax, bx) - (st.flipped ? 0 : wide);
      const right = Math.max(ax, bx) + (st.flipped ? wide : 0);
      el('rect', { x: left, y: Math.min(ay, by), width: right - left, height: Math.abs(by - ay), class: `river river-${st.kind}` }, p);
      if (st.kind === 'xiangqi') {
        const my = (ay + by) / 2;
        const t1 = el('text', { x: x0 + (x1 - x0) * 0.25, y: my, class: 'river-text' }, p);
        t1.textContent = st.pieceSet === 'hanzi' ? '楚 河' : 'River';
        const t2 = el('text', { x: x0 + (x1 - x0) * 0.75, y: my, class: 'river-text' }, p);
        t2.textContent = st.pieceSet === 'hanzi' ? '漢 界' : 'Border';
      }
    }
    const lines = el('g', { class: 'lines' }, p);
    for (let r = 0; r < g.ranks; r++) {
      const [ax, ay] = this.xy(0, r);
      const [bx] = this.xy(g.files - 1, r);
      el('line', { x1: ax, y1: ay, x2: bx, y2: ay }, lines);
    }
    for (let f = 0; f < g.files; f++) {
      const file = g.file_labels[f];
      const edge = f === 0 || f === g.files - 1;
      const crossesRiver = river && after >= 0 && river.files.includes(file);
      const ford = river?.fords.includes(file) ?? false;
      if (crossesRiver && !(edge && st.kind === 'xiangqi')) {
        const [ax, ay] = this.xy(f, 0);
        const [, by] = this.xy(f, after);
        const [, cy] = this.xy(f, after + 1);
        const [, dy] = this.xy(f, g.ranks - 1);
        el('line', { x1: ax, y1: ay, x2: ax, y2: by }, lines);
        el('line', { x1: ax, y1: cy, x2: ax, y2: dy }, lines);
        if (ford) el('line', { x1: ax, y1: by, x2: ax, y2: cy, class: 'ford' }, lines);
      } else {
        const [ax, ay] = this.xy(f, 0);
        const [, by] = this.xy(f, g.ranks - 1);
        el('line', { x1: ax, y1: ay, x2: ax, y2: by }, lines);
      }
    }
    for (const region of g.regions) {
      if (!region.diagonals) continue;
      const idx = region.squares.map((sq) => squareIndex(g, sq));
      const fs = idx.map(([f]) => f);
      const rs = idx.map(([, r]) => r);
      const [ax, ay] = this.xy(Math.min(...fs), Math.min(...rs));
      const [bx, by] = this.xy(Math.max(...fs), Math.max(...rs));
      el('line', { x1: ax, y1: ay, x2: bx, y2: by }, lines);
      el('line', { x1: ax, y1: by, x2: bx, y2: ay }, lines);
    }
    el('rect', { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0), class: 'outline' }, lines);
  }

  /** @param {Element} p */
  drawLabels(p) {
    const st = /** @type {BoardState} */ (this.state);
    const g = st.geometry;
    const labels = el('g', { class: 'labels', 'aria-hidden': 'true' }, p);
    const off = this.margin * (this.cells ? 0.5 : 0.72);
    for (let f = 0; f < g.files; f++) {
      const r = st.flipped ? g.ranks - 1 : 0;
      const [x, y] = this.xy(f, r);
      const t = el('text', { x, y: y + (this.cells ? S / 2 : 0) + off }, labels);
      t.textContent = g.file_labels[f];
    }
    for (let r = 0; r < g.ranks; r++) {
      const f = st.flipped ? g.files - 1 : 0;
      // Chess-Battle's side arms leave the first files empty on most ranks: label at the edge.
      const [x, y] = this.xy(f, r);
      const t = el('text', { x: x - (this.cells ? S / 2 : 0) - off, y }, labels);
      t.textContent = g.rank_labels[r];
    }
  }

  /**
   * @param {Element} parent
   * @param {string} sq
   * @param {string} text
   * @param {string} redColour the first seat's colour name
   */
  drawPiece(parent, sq, text, redColour) {
    const st = /** @type {BoardState} */ (this.state);
    const g = st.geometry;
    const [x, y] = this.at(sq);
    const list = units(text);
    if (!list.length) return;
    const [carrier, ...passengers] = list;
    const grp = el('g', { class: 'piece', 'data-square': sq, 'data-piece': text, transform: `translate(${x} ${y})` }, parent);
    const colourOf = (/** @type {string} */ letter) =>
      g.pieces.find((pc) => pc.letter === letter)?.colour ?? (letter === letter.toUpperCase() ? redColour : 'black');
    const colour = colourOf(carrier.letter);
    if (colour === 'unknown') {
      el('circle', { r: S * 0.43, class: 'disc facedown' }, grp);
      el('circle', { r: S * 0.3, class: 'facedown-ring' }, grp);
      return;
    }
    const shape = st.kind === 'chessbattle' ? 'rect' : 'circle';
    if (shape === 'rect') el('rect', { x: -S * 0.4, y: -S * 0.4, width: S * 0.8, height: S * 0.8, rx: 8, class: `disc ${colour}` }, grp);
    else el('circle', { r: S * 0.43, class: `disc ${colour}` }, grp);
    el('circle', { r: S * 0.35, class: `inner ${colour}` }, grp);
    const t = el('text', { class: `glyph ${colour} ${st.pieceSet}`, y: 1 }, grp);
    t.textContent = glyph(st.kind, carrier.letter, st.pieceSet);
    if (carrier.heroic) el('path', { d: star(S * 0.3, -S * 0.3, S * 0.12), class: 'hero' }, grp);
    // Passengers: small discs along the bottom, carrier first in the text.
    passengers.forEach((u, i) => {
      const px = (i - (passengers.length - 1) / 2) * S * 0.42;
      const pg = el('g', { class: 'passenger', transform: `translate(${px} ${S * 0.34})` }, grp);
      const c = colourOf(u.letter);
      el('circle', { r: S * 0.2, class: `disc ${c}` }, pg);
      const pt = el('text', { class: `glyph small ${c}`, y: 1 }, pg);
      pt.textContent = glyph(st.kind, u.letter, st.pieceSet);
      if (u.heroic) el('path', { d: star(S * 0.12, -S * 0.12, S * 0.06), class: 'hero' }, pg);
    });
  }
}

/**
 * A five-pointed star path.
 * @param {number} cx @param {number} cy @param {number} r
 */
function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return `M${pts.join('L')}Z`;
}
