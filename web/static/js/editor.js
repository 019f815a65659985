// The board editor (docs/analysis.md): set up a position of any game by placing pieces from
// the game's own legend, choose who moves, and let the server's rules say whether it stands
// (`POST /api/position` names what is wrong). A position that stands opens on the analysis
// board, or starts a casual game against the engine or in hot seat.
//
// The position text is the game's own notation. Only its placement field is written here,
// generically from the board's shape (ranks top to bottom, runs of empty squares as numbers,
// squares the board lacks left out); every other field is the user's text, kept as typed,
// and checked by the server like the rest.

import { Board } from './board.js';
import { pieceIcon } from './pieces.js';
import { analysisLink, boards } from './analysis.js';
import { t } from './i18n.js';
import { h, gameName, GameScreen, prefs, GAMES } from './ui.js';

/** @typedef {import('./net.js').Net} Net */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').PublicPosition} PublicPosition */

/**
 * The side-to-move letter of each game's notation and the colour it names, first seat first
 * (Banqi's names the colour to move: a set-up Banqi position has its colours).
 */
const TURN = /** @type {Record<GameKind, [[string, string], [string, string]]>} */ ({
  xiangqi: [['w', 'red'], ['b', 'black']],
  banqi: [['r', 'red'], ['b', 'black']],
  chessbattle: [['r', 'red'], ['w', 'white']],
  commander: [['r', 'red'], ['b', 'blue']],
});

/** How long the text must rest before it is checked. */
const CHECK_MS = 250;

/**
 * The squares of a board in the order its notation lists them: ranks from the top, files
 * from the left, squares the board lacks left out.
 * @param {Geometry} g
 */
function notationOrder(g) {
  /** @type {string[][]} */
  const ranks = [];
  for (let r = g.ranks - 1; r >= 0; r--) {
    const rank = [];
    for (let f = 0; f < g.files; f++) {
      const sq = g.file_labels[f] + g.rank_labels[r];
      if (!g.missing.includes(sq)) rank.push(sq);
    }
    ranks.push(rank);
  }
  return ranks;
}

/**
 * The placement field of a position text as pieces by square (a token is a letter, a stack in
 * brackets, either with `+` before it, or a run of empty squares); `null` when it does not fit
 * the board (the server will say why).
 * @param {Geometry} g
 * @param {string} field
 * @returns {Record<string, string>|null}
 */
export function readPlacement(g, field) {
  const order = notationOrder(g);
  const rows = field.split('/');
  if (rows.length !== order.length) return null;
  /** @type {Record<string, string>} */
  const pieces = {};
  for (let i = 0; i < rows.length; i++) {
    const squares = order[i];
    let at = 0;
    for (const token of rows[i].match(/\+?\([^)]*\)|\+?[A-Za-z]|\d+|./g) ?? []) {
      if (/^\d+$/.test(token)) at += Number(token);
      else if (/^\+?(\([^)]*\)|[A-Za-z])$/.test(token) && at < squares.length) pieces[squares[at++]] = token;
      else return null;
    }
    if (at !== squares.length) return null;
  }
  return pieces;
}

/**
 * The placement field for pieces by square.
 * @param {Geometry} g
 * @param {Record<string, string>} pieces
 */
export function writePlacement(g, pieces) {
  return notationOrder(g).map((rank) => {
    let out = '';
    let empty = 0;
    for (const sq of rank) {
      const p = pieces[sq];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) out += String(empty);
      empty = 0;
      out += p;
    }
    return empty ? out + String(empty) : out;
  }).join('/');
}

/** A Banqi pool (`K1A2…k1a2…`) as counts by letter. @param {string} text */
function readPool(text) {
  /** @type {Record<string, number>} */
  const pool = {};
  for (const [, letter, n] of text.matchAll(/([A-Za-z])(\d+)/g)) pool[letter] = Number(n);
  return pool;
}

/**
 * A Banqi position's pool after an edit: the face-down pieces are those of the full set not
 * face up on the board. The pool as written stays while it still fits (as many as the `X`
 * squares, none beyond what is left); else, when what is left is exactly as many as the `X`
 * squares, it is that; else it stays for the person (or the server's message) to correct.
 * @param {string} startPool the full set, as the start writes it
 * @param {string} written the pool field as it is
 * @param {Record<string, string>} pieces
 */
export function banqiPool(startPool, written, pieces) {
  const left = readPool(startPool);
  let hidden = 0;
  for (const p of Object.values(pieces)) {
    if (p === 'X') hidden++;
    else if (left[p] !== undefined) left[p]--;
  }
  const pool = readPool(written);
  const total = (/** @type {Record<string, number>} */ c) => Object.values(c).reduce((a, b) => a + b, 0);
  const fits = total(pool) === hidden && Object.entries(pool).every(([k, n]) => n <= (left[k] ?? 0));
  if (fits || total(left) !== hidden || Object.values(left).some((n) => n < 0)) return written;
  return Object.entries(left).filter(([, n]) => n > 0).map(([k, n]) => `${k}${n}`).join('') || '-';
}

export class BoardEditor extends GameScreen {
  /**
   * @param {HTMLElement} root
   * @param {Net} net
   * @param {string} path the address after `#/editor/`: `<game>?fen=…&options=…`
   */
  constructor(root, net, path) {
    super(root, net, path);
    const q = this.query;
    /** @type {string} the position text as it stands */
    this.fen = q.get('fen') ?? '';
    /** @type {string|null} the piece the next click places; '' removes */
    this.brush = null;
    /** @type {string} the server's verdict: '' for a position that stands */
    this.problem = '';
    this.checked = false;
    /** @type {Geometry|null} */
    this.geometry = null;
    /** @type {PublicPosition|null} the game's start, for "start position" */
    this.start = null;
    this.asked = 0;
    this.closed = false;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.timer = null;
    this.el = this.build();
    this.board = new Board(this.el.boardHost, () => {});
    this.board.onSquare = (sq) => this.place(sq);
    void Promise.all([boards(), fetch('/api/starts').then((r) => r.json())]).then(([geometries, starts]) => {
      this.geometry = geometries[this.kind] ?? null;
      this.start = starts[this.kind] ?? null;
      if (!this.fen && this.start) this.fen = this.start.fen;
      this.el.text.value = this.fen;
      this.renderPalette();
      this.changed();
    });
  }

  destroy() {
    if (this.timer) clearTimeout(this.timer);
    this.closed = true;
  }

  build() {
    this.root.replaceChildren();
    const text = /** @type {HTMLInputElement} */ (h('input', { id: 'editor-fen', class: 'editor-fen', 'aria-label': t('editor.text'), autocomplete: 'off', spellcheck: 'false' }));
    text.addEventListener('input', () => {
      this.fen = text.value.trim();
      this.changed();
    });
    const e = {
      boardHost: h('div', { class: 'board-host editing' }),
      palette: h('div', { class: 'palette', role: 'toolbar', 'aria-label': t('editor.palette') }),
      verdict: h('p', { class: 'editor-verdict', role: 'status', 'aria-live': 'polite' }),
      turn: h('div', { class: 'editor-turn', role: 'radiogroup', 'aria-label': t('editor.turn') }),
      actions: h('div', { class: 'controls editor-actions' }),
      text,
    };
    this.root.append(h('section', { class: 'game editor' },
      h('div', { class: 'board-col' }, e.boardHost, e.palette),
      h('div', { class: 'side-col' },
        h('div', { class: 'info' }, h('h2', {}, `${t('editor.title')} · ${gameName(this.kind)}`), h('p', {}, t('editor.help'))),
        e.turn, h('label', { for: 'editor-fen' }, t('editor.text')), text, e.verdict, e.actions),
    ));
    return e;
  }

  /** The position text's fields: placement first. */
  fields() {
    return this.fen.split(' ');
  }

  /** Places the brush's piece on `sq` (or takes the piece there away). @param {string} sq */
  place(sq) {
    const g = this.geometry;
    if (!g || this.brush === null) return;
    const [field, ...rest] = this.fields();
    const pieces = readPlacement(g, field);
    if (!pieces) {
      this.problem = t('editor.unreadable');
      this.render();
      return;
    }
    if (this.brush === '' || pieces[sq] === this.brush) delete pieces[sq];
    else pieces[sq] = this.brush;
    if (this.kind === 'banqi' && this.start && rest.length >= 2) {
      rest[1] = banqiPool(this.start.fen.split(' ')[2] ?? '', rest[1], pieces);
    }
    this.fen = [writePlacement(g, pieces), ...rest].join(' ');
    this.el.text.value = this.fen;
    this.changed();
  }

  /** @param {0|1} seat */
  setTurn(seat) {
    const f = this.fields();
    if (f.length < 2) f.push('');
    f[1] = TURN[this.kind][seat][0];
    this.fen = f.join(' ');
    this.el.text.value = this.fen;
    this.changed();
  }

  /** The text changed: drawn at once, checked by the server when it rests. */
  changed() {
    this.checked = false;
    this.render();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.check(), CHECK_MS);
  }

  async check() {
    const asked = ++this.asked;
    let problem = '';
    try {
      const r = await fetch('/api/position', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game: this.kind, options: this.options, fen: this.fen, moves: [] }),
        credentials: 'same-origin',
      });
      const body = await r.json();
      if (!r.ok) problem = body.error ?? t('analysis.failed');
      else if (body.result) problem = t('editor.over');
    } catch {
      problem = t('analysis.failed');
    }
    if (asked !== this.asked || this.closed) return;
    this.problem = problem;
    this.checked = true;
    this.render();
  }

  render() {
    const g = this.geometry;
    if (!g) return;
    const pieces = readPlacement(g, this.fields()[0]) ?? {};
    this.board.set({
      kind: this.kind, geometry: g, pieces, legal: null, lastMove: [], check: null, flipped: false,
      pieceSet: prefs().pieceSet, zones: { first: [], second: [] }, marks: [], arrows: [],
    });
    this.renderTurn();
    this.renderVerdict();
    this.renderActions();
  }

  renderPalette() {
    const g = /** @type {Geometry} */ (this.geometry);
    const button = (/** @type {string|null} */ brush, /** @type {Node|string} */ face, /** @type {string} */ label) => {
      const b = h('button', { type: 'button', class: 'secondary brush', 'data-brush': brush ?? 'none', 'aria-label': label, title: label, 'aria-pressed': String(this.brush === brush) }, face);
      b.addEventListener('click', () => {
        this.brush = this.brush === brush ? null : brush;
        for (const other of this.el.palette.querySelectorAll('.brush')) other.setAttribute('aria-pressed', String(other === b && this.brush !== null));
      });
      return b;
    };
    this.el.palette.replaceChildren(
      ...g.pieces.map((p) => button(p.letter, pieceIcon(g, p.letter, prefs().pieceSet, this.kind), `${p.name} (${p.letter})`)),
      button('', '✕', t('editor.erase')),
    );
  }

  renderTurn() {
    const turn = this.fields()[1];
    this.el.turn.replaceChildren(t('editor.turn'), ' ', ...TURN[this.kind].map(([token, colour], i) => {
      const b = h('button', { type: 'button', class: 'secondary', role: 'radio', 'data-turn': token, 'aria-checked': String(turn === token) }, t(`colour.${colour}`));
      b.addEventListener('click', () => this.setTurn(/** @type {0|1} */ (i)));
      return b;
    }));
  }

  renderVerdict() {
    const v = this.el.verdict;
    v.classList.toggle('bad', !!this.problem);
    v.textContent = !this.checked ? t('editor.checking') : this.problem || t('editor.ok');
  }

  renderActions() {
    const ok = this.checked && !this.problem;
    const analyse = h('a', { class: 'button secondary', href: analysisLink(this.kind, { options: this.options, fen: this.fen }), 'data-action': 'analyse' }, t('editor.analyse'));
    if (!ok) analyse.setAttribute('aria-disabled', 'true');
    const level = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': t('editor.level') }, ...Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1) }, t('editor.level_n', { n: i + 1 })))));
    level.value = '5';
    const clock = { initial_ms: 0, increment_ms: 0 };
    const ai = h('button', { type: 'button', 'data-action': 'play-ai' }, t('editor.play_ai'));
    ai.addEventListener('click', () => {
      // The person takes the seat to move.
      const seat = this.fields()[1] === TURN[this.kind][1][0] ? 'second' : 'first';
      this.net.send({ t: 'play_ai', game: this.kind, options: this.options, clock, level: Number(level.value), seat, fen: this.fen });
    });
    const friend = h('button', { type: 'button', class: 'secondary', 'data-action': 'hotseat' }, t('editor.hotseat'));
    friend.addEventListener('click', () => this.net.send({ t: 'hotseat', game: this.kind, options: this.options, clock, fen: this.fen }));
    const reset = h('button', { type: 'button', class: 'secondary' }, t('editor.start'));
    reset.addEventListener('click', () => {
      if (!this.start) return;
      this.fen = this.start.fen;
      this.el.text.value = this.fen;
      this.changed();
    });
    const clear = h('button', { type: 'button', class: 'secondary' }, t('editor.clear'));
    clear.addEventListener('click', () => {
      const g = /** @type {Geometry} */ (this.geometry);
      const [, ...rest] = this.fields();
      this.fen = [writePlacement(g, {}), ...rest].join(' ');
      this.el.text.value = this.fen;
      this.changed();
    });
    const games = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': t('analysis.game') }, ...GAMES.map((k) => h('option', { value: k }, gameName(k)))));
    games.value = this.kind;
    games.addEventListener('change', () => {
      location.hash = `#/editor/${games.value}`;
    });
    for (const b of [ai, friend, level]) /** @type {HTMLButtonElement} */ (b).disabled = !ok;
    // Banqi games start face down from a fair deal: set-up positions are for analysis.
    const play = this.kind === 'banqi' ? [] : [level, ai, friend];
    this.el.actions.replaceChildren(analyse, ...play, reset, clear, games);
  }
}
