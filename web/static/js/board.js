// An SVG board drawn from a geometry and fed the legal moves by the server. It knows no rule:
// a move is a path of squares from the server's list, picked by clicks or a drag; when
// several listed moves share a path the player picks one (by its pieces where the server
// says which pieces each step moves, else by its text). Between the player's turns one
// premove may be set: two squares, played when the server lists a move on exactly them.

import { squareIndex, units } from './geometry.js';
import { drawUnit, pieceIcon, pieceInfo } from './pieces.js';
import { HANZI } from './art/hanzi.js';
import { t, pieceName } from './i18n.js';
import { el } from './svg.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').LegalMove} LegalMove */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./pieces.js').PieceSet} PieceSet */

const S = 60; // one file/rank step in SVG units
const ANIMATION_MS = 180;

/**
 * @typedef {object} BoardState
 * @property {GameKind} kind
 * @property {Geometry} geometry
 * @property {Record<string, string>} pieces
 * @property {LegalMove[]|null} legal moves the user may pick now, null when not their turn
 * @property {string[]} lastMove squares of the last move
 * @property {string|null} check the square of a piece in check
 * @property {boolean} flipped
 * @property {PieceSet} pieceSet
 * @property {{first: string[], second: string[]}} zones squares to shade as each seat's air-defence zones
 * @property {string[]} marks squares to mark (a proposal, a tally's favourite)
 * @property {string|null} [premoveColour] the player's piece colour when a premove may be set now
 * @property {boolean} [animate] animate the last move into place (a move just played)
 * @property {string[][]} [arrows] moves to draw as arrows, each by its squares (the engine's
 *   best move): from the first square to the last, a ring where there is one square (a flip)
 */

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
    /** @type {string[]} the pieces chosen for each step so far (stacks) */
    this.groups = [];
    /** @type {string[]|null} a premove's two squares */
    this.premove = null;
    /** How many move animations have run (the tests read it). */
    this.animations = 0;
    /** @type {((sq: string) => void)|null} a click on a square goes here instead (the board editor) */
    this.onSquare = null;
    this.svg = el('svg', { class: 'board', role: 'group' });
    host.appendChild(this.svg);
    this.picker = document.createElement('div');
    this.picker.className = 'picker';
    this.picker.hidden = true;
    host.appendChild(this.picker);
    this.tip = document.createElement('div');
    this.tip.className = 'piece-tip';
    this.tip.hidden = true;
    this.tip.setAttribute('role', 'tooltip');
    host.appendChild(this.tip);
    /** @type {{from: string, ghost: SVGGElement, moved: boolean, x0: number, y0: number, premove: boolean}|null} */
    this.drag = null;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.pressTimer = null;
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.endPress());
    this.svg.addEventListener('pointerleave', () => {
      if (!this.drag) this.hideTip();
    });
    this.svg.addEventListener('contextmenu', (e) => {
      // A right click cancels a premove or a selection, as on lichess.
      if (this.premove || this.path.length) {
        e.preventDefault();
        this.cancel();
      }
    });
    this.svg.addEventListener('keydown', (e) => {
      const sq = /** @type {Element} */ (e.target).getAttribute?.('data-square');
      if (sq && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        this.click(sq);
      } else if (e.key === 'Escape') this.cancel();
    });
  }

  /** @param {BoardState} state */
  set(state) {
    // The first moment a person can act on the board, for the load measurement.
    if (state.legal?.length && !performance.getEntriesByName('board-interactive').length) performance.mark('board-interactive');
    const legalChanged = this.state?.legal !== state.legal;
    const before = this.state;
    this.state = state;
    if (legalChanged) this.reset();
    this.draw();
    if (state.animate && before && before.pieces !== state.pieces) this.animateLast(before);
    if (legalChanged && state.legal && this.premove) this.playPremove();
  }

  reset() {
    this.path = [];
    this.groups = [];
    this.picker.hidden = true;
  }

  /** Drops the selection and any premove. */
  cancel() {
    this.premove = null;
    this.reset();
    this.draw();
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
    const fx = Math.round((x - this.margin - half) / S);
    const ry = Math.round((y - this.margin - half) / S);
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

  /**
   * The listed moves that start with `path` and move the chosen pieces.
   * @param {string[]} path
   * @param {string[]} [groups]
   */
  candidates(path, groups = this.groups) {
    const legal = this.state?.legal ?? [];
    return legal.filter((m) => path.every((sq, i) => m.squares[i] === sq) && groups.every((u, i) => !m.units || m.units[i] === u));
  }

  /** The squares a click may go to next. */
  nextSquares() {
    const n = this.path.length;
    if (n === 0) return new Set();
    return new Set(this.candidates(this.path).filter((m) => m.squares.length > n).map((m) => m.squares[n]));
  }

  /**
   * The pieces that may go on from the path, when the server names them and they differ
   * (a stack: the whole stack, or some of its pieces).
   * @param {LegalMove[]} moves
   * @param {number} step
   */
  groupChoices(moves, step) {
    const seen = [...new Set(moves.filter((m) => m.units && m.units.length > step).map((m) => /** @type {string[]} */ (m.units)[step]))];
    return seen.length > 1 ? seen.sort((a, b) => units(b).length - units(a).length) : [];
  }

  /** @param {string} sq */
  click(sq) {
    const st = this.state;
    if (!st) return;
    if (this.onSquare) return this.onSquare(sq);
    if (!st.legal) return this.premoveClick(sq);
    this.picker.hidden = true;
    if (this.path.length === 1 && this.path[0] === sq) {
      // A second click on the selected square: a one-square move there (a Banqi flip), or
      // deselect.
      const exact = this.candidates([sq]).filter((m) => m.squares.length === 1);
      if (exact.length && this.candidates([sq]).length > exact.length) return this.choose(exact, [sq]);
      this.reset();
      return this.draw();
    }
    let path = [...this.path, sq];
    if (!this.candidates(path).length && this.path.length) {
      // A click on the final square of a longer move (a chain's last landing) picks it
      // without clicking every landing in between.
      const ends = this.candidates(this.path).filter((m) => m.squares.length > path.length && m.squares[m.squares.length - 1] === sq);
      if (ends.length === 1) {
        this.reset();
        this.onMove(ends[0]);
        return;
      }
      if (ends.length > 1) return this.choose(ends, this.path);
    }
    if (!this.candidates(path).length) {
      path = [sq];
      this.groups = [];
    }
    const cands = this.candidates(path);
    if (!cands.length) {
      this.reset();
      return this.draw();
    }
    const exact = cands.filter((m) => m.squares.length === path.length);
    const longer = cands.filter((m) => m.squares.length > path.length);
    if (exact.length === 1 && !longer.length) {
      this.reset();
      this.onMove(exact[0]);
      return;
    }
    this.path = path;
    this.draw();
    const step = path.length - 1;
    if (exact.length > 1 && this.groupChoices(exact, step - 1).length) return this.chooseGroup(exact, step - 1, longer);
    if (exact.length) return this.choose(exact, path, longer.length > 0);
    if (this.groupChoices(longer, step).length) this.chooseGroup([], step, longer);
  }

  /**
   * Offers the pieces that may move at a step of a stack's turn, as pictures with names:
   * the turn's pieces first, then their square. `ending` are the moves that end here with
   * different pieces (picking one plays it); `going` those that go on.
   * @param {LegalMove[]} ending
   * @param {number} step
   * @param {LegalMove[]} going
   */
  chooseGroup(ending, step, going) {
    const st = /** @type {BoardState} */ (this.state);
    this.picker.replaceChildren();
    this.picker.classList.add('more', 'groups');
    const title = document.createElement('p');
    title.textContent = ending.length ? t('board.which_pieces_end') : t('board.which_pieces');
    this.picker.appendChild(title);
    const row = document.createElement('div');
    row.className = 'group-row';
    const button = (/** @type {string} */ unit, /** @type {() => void} */ act, /** @type {string} */ data) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'secondary group';
      b.dataset.group = data;
      b.append(pieceIcon(st.geometry, unit, st.pieceSet, st.kind), document.createTextNode(this.unitName(unit)));
      b.addEventListener('click', act);
      row.appendChild(b);
    };
    for (const m of ending) {
      const unit = /** @type {string[]} */ (m.units)[step];
      button(unit, () => {
        this.reset();
        this.onMove(m);
      }, unit);
    }
    if (!ending.length)
      for (const unit of this.groupChoices(going, step))
        button(unit, () => {
          this.groups = [...this.groups.slice(0, step), unit];
          this.picker.hidden = true;
          this.draw();
        }, unit);
    this.picker.appendChild(row);
    this.picker.appendChild(this.cancelButton());
    this.placePicker();
    this.picker.hidden = false;
  }

  /**
   * Puts a picker that leaves the board free to click on the half of the board away from
   * the square being moved from, so it hides neither that square nor the ones near it.
   */
  placePicker() {
    const sq = this.path[this.path.length - 1];
    if (!sq || !this.state) return;
    const [, y] = this.at(sq);
    const low = y > this.svg.viewBox.baseVal.height / 2;
    this.picker.classList.toggle('at-top', low);
  }

  cancelButton() {
    const cancel = document.createElement('button');
    cancel.textContent = t('board.cancel');
    cancel.className = 'secondary';
    cancel.addEventListener('click', () => this.cancel());
    return cancel;
  }

  /**
   * Shows the moves that share the clicked path so the player picks one by its text.
   * @param {LegalMove[]} moves
   * @param {string[]} path
   * @param {boolean} [more] whether the path may also go on (a longer deploy or chain)
   */
  choose(moves, path, more = false) {
    this.picker.replaceChildren();
    this.picker.classList.remove('groups');
    const title = document.createElement('p');
    title.textContent = more ? t('board.stop_or_go_on') : t('board.which_move');
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
    this.picker.appendChild(this.cancelButton());
    this.picker.classList.toggle('more', more);
    this.path = path;
    this.placePicker();
    this.picker.hidden = false;
  }

  /**
   * Picks a move by typed coordinates (`h2e2`, `h2 e2`, `d2`) or its text (`C2=5` in WXF,
   * `Te4×e6`, the move's own text), case and spaces aside.
   * @param {string} text
   * @returns {string} an error to show, or '' when a move was made or offered
   */
  typed(text) {
    const legal = this.state?.legal;
    if (!legal) return t('board.not_your_move');
    const t0 = text.trim();
    const norm = (/** @type {string} */ s) => s.toLowerCase().replace(/\s+/g, '').replace(/[x*]/g, '×').replace(/[-–]/g, '-');
    const byText = legal.filter((m) => m.mv === t0 || m.display === t0);
    const loose = byText.length ? byText : legal.filter((m) => norm(m.display) === norm(t0) || norm(m.mv) === norm(t0));
    if (loose.length === 1) {
      this.onMove(loose[0]);
      return '';
    }
    const squares = t0.toLowerCase().match(/[a-z]\d+/g) ?? [];
    if (!squares.length) return t('board.type_hint');
    const exact = legal.filter((m) => m.squares.join() === squares.join());
    if (exact.length === 1) {
      this.onMove(exact[0]);
      return '';
    }
    if (exact.length > 1) {
      this.choose(exact, squares);
      return '';
    }
    return t('board.no_such_move', { move: squares.join('-') });
  }

  // ---- premoves -------------------------------------------------------------------------

  /** @param {string} sq */
  ownPiece(sq) {
    const st = /** @type {BoardState} */ (this.state);
    const text = st.pieces[sq];
    if (!text || !st.premoveColour) return false;
    const first = units(text)[0];
    return !!first && pieceInfo(st.geometry, first.letter)?.colour === st.premoveColour;
  }

  /**
   * Between turns: the first click picks one of the player's pieces, the second its square.
   * The board knows no rule, so any square may be chosen; the premove is played only if
   * the server then lists a move on exactly those squares.
   * @param {string} sq
   */
  premoveClick(sq) {
    const st = /** @type {BoardState} */ (this.state);
    if (!st.premoveColour) return;
    if (this.premove) {
      this.premove = null;
      this.path = [];
    }
    if (this.path.length === 1 && this.path[0] !== sq) {
      this.premove = [this.path[0], sq];
      this.path = [];
    } else if (this.path.length === 0 && this.ownPiece(sq)) this.path = [sq];
    else this.path = [];
    this.draw();
  }

  playPremove() {
    const pm = this.premove;
    this.premove = null;
    if (!pm) return;
    const matching = (this.state?.legal ?? []).filter((m) => m.squares.length === 2 && m.squares[0] === pm[0] && m.squares[1] === pm[1]);
    if (matching.length === 1) this.onMove(matching[0]);
    else if (matching.length > 1) {
      this.path = pm;
      this.draw();
      this.choose(matching, pm);
    } else this.draw();
  }

  // ---- pointer --------------------------------------------------------------------------

  /** @param {PointerEvent} e */
  pointerDown(e) {
    const st = this.state;
    if (!st) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (!sq) return;
    if (e.button === 2) return;
    e.preventDefault();
    this.hideTip();
    if (e.pointerType !== 'mouse' && st.pieces[sq]) {
      // A long press names the piece (phones have no hover).
      this.pressTimer = setTimeout(() => this.showTip(sq), 450);
    }
    const premove = !st.legal && !!st.premoveColour && this.ownPiece(sq);
    const starts = premove || (!!st.legal && (this.path.length === 0 || this.candidates([sq]).length > 0) && this.candidates([sq]).some((m) => m.squares.length > 1));
    const piece = this.svg.querySelector(`g.piece[data-square="${sq}"]`);
    if (piece && starts) {
      const ghost = /** @type {SVGGElement} */ (piece.cloneNode(true));
      ghost.classList.add('ghost');
      ghost.removeAttribute('data-square');
      this.drag = { from: sq, ghost, moved: false, x0: x, y0: y, premove };
      this.svg.setPointerCapture?.(e.pointerId);
    }
    this.click(sq);
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const d = this.drag;
    if (!d) {
      if (e.pointerType === 'mouse') this.hover(e);
      return;
    }
    const [x, y] = this.svgPoint(e);
    if (!d.moved && Math.hypot(x - d.x0, y - d.y0) < S / 5) return;
    if (!d.moved) {
      d.moved = true;
      this.endPress();
      this.svg.appendChild(d.ghost);
      this.svg.querySelector(`g.piece[data-square="${d.from}"]`)?.classList.add('lifted');
    }
    // The ghost's own transform is its square's: replace it with the pointer's position so
    // the piece's centre stays under the pointer.
    d.ghost.setAttribute('transform', `translate(${x.toFixed(1)} ${y.toFixed(1)})`);
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    this.endPress();
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost.remove();
    this.svg.querySelector(`g.piece[data-square="${d.from}"]`)?.classList.remove('lifted');
    if (!d.moved) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (sq && sq !== d.from) this.click(sq);
  }

  endPress() {
    if (this.pressTimer) clearTimeout(this.pressTimer);
    this.pressTimer = null;
  }

  // ---- the legend: hover or long press names a piece -------------------------------------

  /** @param {PointerEvent} e */
  hover(e) {
    const st = this.state;
    if (!st) return;
    const [x, y] = this.svgPoint(e);
    const sq = this.squareAt(x, y);
    if (sq && st.pieces[sq]) {
      if (this.tip.dataset.square !== sq) this.showTip(sq);
    } else this.hideTip();
  }

  /** @param {string} sq */
  showTip(sq) {
    const st = this.state;
    const text = st?.pieces[sq];
    if (!st || !text) return;
    this.tip.textContent = this.unitName(text);
    this.tip.dataset.square = sq;
    const [x, y] = this.at(sq);
    const box = this.svg.viewBox.baseVal;
    this.tip.style.left = `${(100 * x) / box.width}%`;
    this.tip.style.top = `${(100 * (y - S * 0.5)) / box.height}%`;
    this.tip.hidden = false;
  }

  hideTip() {
    this.tip.hidden = true;
    delete this.tip.dataset.square;
  }

  /**
   * A unit text's name in the page's language: `Red tank carrying militia`.
   * @param {string} text
   */
  unitName(text) {
    const g = /** @type {BoardState} */ (this.state).geometry;
    const names = units(text).map((u, i) => {
      const info = pieceInfo(g, u.letter);
      if (!info) return u.letter;
      if (info.colour === 'unknown') return t('piece.hidden');
      const name = pieceName(info.symbol, info.colour);
      // The carrier names the side (passengers are always its own).
      const coloured = i === 0 ? t('piece.of_colour', { colour: t(`colour.${info.colour}`).toLowerCase(), piece: name }) : name;
      return u.heroic ? t('piece.heroic', { piece: coloured }) : coloured;
    });
    return names.length > 1 ? t('piece.carrying', { carrier: names[0], passengers: names.slice(1).join(t('list.and')) }) : names[0] ?? '';
  }

  // ---- animation ------------------------------------------------------------------------

  /**
   * Slides the piece that just moved from its first square to where it stands now.
   * @param {BoardState} before
   */
  animateLast(before) {
    const st = /** @type {BoardState} */ (this.state);
    const [from, ...rest] = st.lastMove;
    const to = rest[rest.length - 1];
    if (!from || !to || !st.pieces[to] || before.pieces[to] === st.pieces[to]) return;
    const piece = /** @type {SVGGElement|null} */ (this.svg.querySelector(`g.piece[data-square="${to}"]`));
    if (!piece) return;
    const [x0, y0] = this.at(from);
    const [x1, y1] = this.at(to);
    this.animations += 1;
    piece.classList.add('moving');
    const t0 = performance.now();
    const frame = (/** @type {number} */ now) => {
      const k = Math.min(1, (now - t0) / ANIMATION_MS);
      const e = 1 - (1 - k) ** 3;
      piece.setAttribute('transform', `translate(${(x0 + (x1 - x0) * e).toFixed(1)} ${(y0 + (y1 - y0) * e).toFixed(1)})`);
      if (k < 1) requestAnimationFrame(frame);
      else piece.classList.remove('moving');
    };
    piece.setAttribute('transform', `translate(${x0} ${y0})`);
    requestAnimationFrame(frame);
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
    // The layout sizes the board's column by the screen's height and this shape.
    this.host.parentElement?.style.setProperty('--board-aspect', (W / H).toFixed(3));
    svg.setAttribute('class', `board board-${st.kind} layout-${g.layout}`);
    svg.setAttribute('aria-label', t(st.flipped ? 'board.label_flipped' : 'board.label', { game: t(`game.${st.kind}`) }));
    const defs = el('defs', {}, svg);
    const glow = el('radialGradient', { id: 'check-glow' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ff1a1a', 'stop-opacity': '.95' }, glow);
    el('stop', { offset: '55%', 'stop-color': '#ff3b30', 'stop-opacity': '.55' }, glow);
    el('stop', { offset: '100%', 'stop-color': '#ff3b30', 'stop-opacity': '0' }, glow);
    const head = el('marker', { id: 'arrow-head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }, head);
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
    if (this.premove) this.premove.forEach((sq) => this.square(marks, sq, 'premove'));
    if (this.path.length) this.square(marks, this.path[this.path.length - 1], 'selected');
    for (const sq of this.path.slice(0, -1)) this.square(marks, sq, 'selected');
    if (st.check) {
      // A glow under the royal piece in check, inside the board where the eye is.
      const [x, y] = this.at(st.check);
      el('circle', { cx: x, cy: y, r: S * 0.62, class: 'hl check', fill: 'url(#check-glow)', 'data-square': st.check }, marks);
    }
    const pieces = el('g', { class: 'pieces' }, svg);
    for (const [sq, text] of Object.entries(st.pieces)) {
      const [x, y] = this.at(sq);
      const grp = el('g', { class: 'piece', 'data-square': sq, 'data-piece': text, transform: `translate(${x} ${y})` }, pieces);
      drawUnit(grp, g, text, st.pieceSet, S);
    }
    // Above the pieces, as on paper; clicks go through to the squares.
    const arrows = el('g', { class: 'arrows' }, svg);
    for (const path of st.arrows ?? []) this.arrow(arrows, path);
    const dests = el('g', { class: 'dests' }, svg);
    const next = this.nextSquares();
    for (const sq of next) {
      const [x, y] = this.at(sq);
      const capture = !!st.pieces[sq];
      el('circle', { cx: x, cy: y, r: capture ? S * 0.46 : S * 0.15, class: capture ? 'dest capture' : 'dest', 'data-dest': sq }, dests);
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
        const name = text ? this.unitName(text) : t('board.empty');
        const actionable = origins.has(sq) || next.has(sq);
        el('rect', {
          x: x - S / 2, y: y - S / 2, width: S, height: S, class: 'hit', 'data-square': sq,
          role: 'button', tabindex: actionable ? 0 : -1, 'aria-label': `${sq}, ${name}`,
        }, hits);
      }
  }

  /**
   * An arrow from a move's first square to its last (a Chess-Battle shot, a Commander move
   * of several steps: the squares between are left out), or a ring on a lone square.
   * @param {Element} parent
   * @param {string[]} path
   */
  arrow(parent, path) {
    const from = path[0];
    const to = path[path.length - 1];
    if (!from) return;
    const [x0, y0] = this.at(from);
    const [x1, y1] = this.at(to);
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 1) {
      el('circle', { cx: x0, cy: y0, r: S * 0.4, class: 'arrow ring', 'data-from': from, 'data-to': to }, parent);
      return;
    }
    // The line stops short so that the head's tip, not its middle, meets the square's centre.
    const k = (len - 15) / len;
    el('line', { x1: x0, y1: y0, x2: x0 + (x1 - x0) * k, y2: y0 + (y1 - y0) * k, class: 'arrow', 'marker-end': 'url(#arrow-head)', 'data-from': from, 'data-to': to }, parent);
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
      if (river.files.length === g.files) {
        // The river's words (楚河 漢界), drawn as paths like the pieces.
        const my = (ay + by) / 2;
        const words = el('g', { class: 'river-text', 'aria-hidden': 'true' }, p);
        [['楚', 0.14], ['河', 0.28], ['漢', 0.72], ['界', 0.86]].forEach(([ch, at]) => {
          const x = x0 + (x1 - x0) * /** @type {number} */ (at);
          el('path', { d: HANZI[/** @type {string} */ (ch)] ?? '', transform: `translate(${x.toFixed(1)} ${my}) scale(.34)` }, words);
        });
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
      // A river over the whole board (Xiangqi's) is crossed by the edge files only.
      const whole = river && river.files.length === g.files;
      if (crossesRiver && !(edge && whole)) {
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
      const tx = el('text', { x, y: y + (this.cells ? S / 2 : 0) + off }, labels);
      tx.textContent = g.file_labels[f];
    }
    for (let r = 0; r < g.ranks; r++) {
      const f = st.flipped ? g.files - 1 : 0;
      // Chess-Battle's side arms leave the first files empty on most ranks: label at the edge.
      const [x, y] = this.xy(f, r);
      const tx = el('text', { x: x - (this.cells ? S / 2 : 0) - off, y }, labels);
      tx.textContent = g.rank_labels[r];
    }
  }
}
