// The analysis board (docs/analysis.md): any position of any game, moved freely, with the
// engine's best lines updating live. The rules stay on the server: each position is asked of
// `POST /api/position` (what may be played, how it reads, whether it is over) and searched
// through the socket (`analyse`), which streams the lines depth by depth until the position's
// engine time is used or the board moves on; leaving the screen stops it.
//
// Its address holds the whole line, so it can be shared and reloaded:
// `#/analysis/<game>?options=…&fen=…&moves=h2e2+h9g7&ply=1`.

import { Board } from './board.js';
import { squaresOf } from './game.js';
import { evalText } from './review.js';
import { t } from './i18n.js';
import { h, gameName, GameScreen, prefs, replayButtons, resultText, seatName, GAMES } from './ui.js';

/** @typedef {import('./net.js').Net} Net */
/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').AnalysedPosition} AnalysedPosition */
/** @typedef {import('./types.js').AnalysisMsg} AnalysisMsg */
/** @typedef {import('./types.js').PositionRequest} PositionRequest */
/** @typedef {import('./types.js').Snapshot} Snapshot */
/** @typedef {import('./types.js').Seat} Seat */

/** Lines the engine shows unless the user picks another number. */
const DEFAULT_LINES = 3;
/** A socket frame is at most 4096 bytes: longer lines start from a later position's FEN. */
const MAX_SENT_MOVES = 300;

/** @type {Record<string, Geometry>|null} */
let geometries = null;

/** Every board the server plays, fetched once. */
export async function boards() {
  if (!geometries) {
    const r = await fetch('/api/geometry');
    geometries = /** @type {Record<string, Geometry>} */ (await r.json());
  }
  return geometries;
}

/**
 * The address of the analysis board for a line.
 * @param {GameKind} kind
 * @param {{options?: string, fen?: string|null, moves?: string[], ply?: number}} at
 */
export function analysisLink(kind, at = {}) {
  const q = new URLSearchParams();
  if (at.options) q.set('options', at.options);
  if (at.fen) q.set('fen', at.fen);
  if (at.moves?.length) q.set('moves', at.moves.join(' '));
  if (at.ply !== undefined && at.moves && at.ply < at.moves.length) q.set('ply', String(at.ply));
  const query = q.toString();
  return `#/analysis/${kind}${query ? `?${query}` : ''}`;
}

export class AnalysisBoard extends GameScreen {
  /**
   * @param {HTMLElement} root
   * @param {Net} net
   * @param {string} path the address after `#/analysis/`
   */
  constructor(root, net, path) {
    super(root, net, path);
    const q = this.query;
    this.fen = q.get('fen') || null;
    /** @type {string[]} the line on the board, from the start */
    this.moves = (q.get('moves') ?? '').split(' ').filter((m) => m);
    const ply = Number(q.get('ply') ?? this.moves.length);
    /** the ply shown: moves[0..ply] are played */
    this.ply = Number.isInteger(ply) ? Math.max(0, Math.min(this.moves.length, ply)) : this.moves.length;
    /** @type {AnalysedPosition|null} the shown position as the server read it */
    this.answer = null;
    /** @type {string} a refusal of the position, in the server's words */
    this.problem = '';
    /** @type {AnalysisMsg|null} the engine's last word on the shown position */
    this.engine = null;
    this.lines = Number(localStorage.getItem('cannonade.lines')) || DEFAULT_LINES;
    this.flipped = false;
    /** Increases with each position asked for: late answers of earlier ones are dropped. */
    this.asked = 0;
    /** The id of the last `analyse` sent: messages of earlier ones are dropped. */
    this.seq = 0;
    /** @type {Geometry|null} */
    this.geometry = null;
    this.closed = false;
    this.el = this.build();
    this.board = new Board(this.el.boardHost, (mv) => this.play(mv.mv));
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.unsub = [
      net.on((m) => {
        if (m.t === 'analysis' && m.id === this.seq) {
          this.engine = m;
          this.renderEngine();
          this.renderBoard();
        } else if (m.t === 'error' && !m.game && this.answer && !this.engine) {
          // The socket's refusal of this analysis (too many boards open).
          this.el.engineStatus.textContent = m.message;
        }
      }),
      // After a reconnection the search is asked for again (the old socket's stopped).
      net.follow(() => (this.answer && !this.answer.result ? [this.analyseMsg()] : [])),
    ];
    void boards().then((g) => {
      this.geometry = g[this.kind] ?? null;
      void this.show();
    });
  }

  destroy() {
    // A position asked for before leaving must not start the engine after it.
    this.closed = true;
    for (const u of this.unsub) u();
    document.removeEventListener('keydown', this.onKey);
    this.net.send({ t: 'stop_analysis' });
  }

  build() {
    this.root.replaceChildren();
    const e = {
      status: h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
      boardHost: h('div', { class: 'board-host' }),
      evaluation: h('p', { class: 'analysis-eval', 'aria-live': 'polite' }),
      engineStatus: h('p', { class: 'analysis-status' }),
      lines: h('ol', { class: 'analysis-lines', 'aria-label': t('analysis.lines') }),
      note: h('p', { class: 'review-note', hidden: '' }, t('review.expectation')),
      moves: h('ol', { class: 'moves', 'aria-label': t('game.moves') }),
      replay: h('div', { class: 'replay' }),
      controls: h('div', { class: 'controls' }),
    };
    const count = /** @type {HTMLSelectElement} */ (h('select', { id: 'analysis-lines', 'aria-label': t('analysis.line_count') },
      ...[1, 2, 3, 4, 5].map((n) => h('option', { value: String(n) }, String(n)))));
    count.value = String(this.lines);
    // Room for every line asked for, one row each, so that the controls below stay put
    // while the lines come and go (a click on them must not land elsewhere).
    e.lines.style.setProperty('--lines', String(this.lines));
    count.addEventListener('change', () => {
      this.lines = Number(count.value);
      e.lines.style.setProperty('--lines', count.value);
      localStorage.setItem('cannonade.lines', count.value);
      this.analyse();
    });
    this.root.append(h('section', { class: 'game analysis' },
      h('div', { class: 'board-col' }, e.status, e.boardHost, e.evaluation),
      h('div', { class: 'side-col' },
        h('div', { class: 'info' }, h('h2', {}, `${t('analysis.title')} · ${gameName(this.kind)}`)),
        h('section', { class: 'engine', 'aria-label': t('analysis.engine') },
          h('h3', {}, t('analysis.engine'), ' ', h('label', { for: 'analysis-lines', class: 'line-count' }, t('analysis.line_count'), ' ', count)),
          e.engineStatus, e.lines, e.note),
        e.replay, e.moves, e.controls),
    ));
    return e;
  }

  /** The request for the shown position: from the start, or from a later FEN for a long line. */
  request() {
    /** @type {PositionRequest} */
    const req = { game: this.kind, options: this.options, moves: this.moves.slice(0, this.ply) };
    if (this.fen) req.fen = this.fen;
    return req;
  }

  analyseMsg() {
    let position = this.request();
    if (position.moves.length > MAX_SENT_MOVES && this.answer) {
      // The engine needs the recent history for repetitions, not the whole game.
      position = { game: this.kind, options: this.options, fen: this.answer.position.fen, moves: [] };
    }
    return { t: 'analyse', id: this.seq, lines: this.lines, position };
  }

  /** Asks for the shown position, draws it and starts the engine on it. */
  async show() {
    const asked = ++this.asked;
    this.engine = null;
    let answer = null;
    let problem = '';
    try {
      const r = await fetch('/api/position', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(this.request()),
        credentials: 'same-origin',
      });
      const body = await r.json();
      if (r.ok) answer = /** @type {AnalysedPosition} */ (body);
      else problem = body.error ?? t('analysis.failed');
    } catch {
      problem = t('analysis.failed');
    }
    if (asked !== this.asked || this.closed) return;
    this.problem = problem;
    if (answer) this.answer = answer;
    this.render();
    if (answer && !answer.result) this.analyse();
    else this.net.send({ t: 'stop_analysis' });
    this.remember();
  }

  /** (Re)starts the engine on the shown position. */
  analyse() {
    if (!this.answer || this.answer.result) return;
    this.engine = null;
    this.seq++;
    this.net.send(this.analyseMsg());
    this.renderEngine();
  }

  /** Keeps the line in the address, without a new screen. */
  remember() {
    history.replaceState(null, '', analysisLink(this.kind, { options: this.options, fen: this.fen, moves: this.moves, ply: this.ply }));
  }

  /** Plays a move from the shown position: the line after it is replaced. @param {string} mv */
  play(mv) {
    if (this.moves[this.ply] !== mv) this.moves = [...this.moves.slice(0, this.ply), mv];
    this.ply++;
    void this.show();
  }

  /** @param {number} ply */
  go(ply) {
    const p = Math.max(0, Math.min(this.moves.length, ply));
    if (p === this.ply) return;
    this.ply = p;
    void this.show();
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') this.go(this.ply - 1);
    else if (e.key === 'ArrowRight') this.go(this.ply + 1);
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.moves.length);
    else return;
    e.preventDefault();
  }

  render() {
    this.renderBoard();
    this.renderStatus();
    this.renderEngine();
    this.renderMoves();
    this.renderControls();
  }

  /** A position's seat names and result words, as the game page says them. */
  asSnapshot() {
    const a = /** @type {AnalysedPosition} */ (this.answer);
    return /** @type {Snapshot} */ (/** @type {unknown} */ ({ position: a.position, result: a.result ?? null }));
  }

  renderBoard() {
    const a = this.answer;
    if (!a || !this.geometry) return;
    const last = this.ply > 0 ? a.moves[this.ply - 1] : null;
    const best = this.engine?.lines[0];
    this.board.set({
      kind: this.kind,
      geometry: this.geometry,
      pieces: a.position.pieces,
      legal: a.result ? null : a.legal,
      lastMove: last ? squaresOf(last.mv) : [],
      check: a.position.check,
      flipped: this.flipped,
      pieceSet: prefs().pieceSet,
      zones: { first: [], second: [] },
      marks: [],
      arrows: best?.squares.length ? [best.squares] : [],
    });
  }

  renderStatus() {
    const a = this.answer;
    const st = this.el.status;
    st.classList.toggle('check', !!a?.position.check);
    if (this.problem) {
      st.replaceChildren(h('span', { class: 'analysis-problem', role: 'alert' }, this.problem));
      return;
    }
    if (!a) return;
    if (a.result) {
      st.textContent = resultText(this.asSnapshot());
      return;
    }
    const seat = a.position.to_move;
    st.textContent = seat ? t('analysis.to_move', { seat: seatName(this.asSnapshot(), seat) }) : '';
  }

  renderEngine() {
    const a = this.answer;
    const e = this.engine;
    this.el.note.hidden = this.kind !== 'banqi';
    const status = this.el.engineStatus;
    const lines = this.el.lines;
    lines.replaceChildren();
    this.el.evaluation.textContent = '';
    if (!a) return;
    if (a.result) {
      status.textContent = t('analysis.over');
      return;
    }
    if (!e) {
      status.textContent = t('analysis.starting');
      return;
    }
    if (e.status === 'queued') status.textContent = t('analysis.queued', { n: (e.place ?? 0) + 1 });
    else if (e.status === 'running') status.textContent = t('analysis.depth', { depth: e.depth, nodes: e.nodes.toLocaleString() });
    else status.textContent = t('analysis.done', { depth: e.depth });
    const seatIndex = a.position.to_move === 'second' ? 1 : 0;
    const first = seatName(this.asSnapshot(), 'first');
    if (e.lines[0]) this.el.evaluation.textContent = t('review.eval', { seat: first, value: evalText(e.lines[0].value, seatIndex) });
    for (const line of e.lines) {
      const value = evalText(line.value, seatIndex);
      const text = line.moves.map((m) => m.display).join(' ');
      // One row a line (cut with an ellipsis): the whole line is in the title.
      const b = h('button', { type: 'button', class: 'line', title: `${t('analysis.play_line')}: ${text}`, 'data-mv': line.moves[0]?.mv ?? '' },
        h('span', { class: 'line-value' }, value), ' ', text);
      const mv = line.moves[0]?.mv;
      if (mv) b.addEventListener('click', () => this.play(mv));
      lines.append(h('li', {}, b));
    }
  }

  renderMoves() {
    const list = this.el.moves;
    const a = this.answer;
    list.replaceChildren();
    // The shown position's moves come from the server; the rest of the line is kept as
    // given until it is shown.
    const shown = a?.moves ?? [];
    const texts = this.moves.map((mv, i) => (i < shown.length ? shown[i].display : mv));
    for (let i = 0; i < texts.length; i += 2) {
      const li = h('li', {});
      for (const j of [i, i + 1]) {
        if (j >= texts.length) break;
        const b = h('button', { type: 'button', class: 'mv' }, texts[j]);
        if (this.ply === j + 1) b.classList.add('current');
        b.addEventListener('click', () => this.go(j + 1));
        li.append(b);
      }
      list.append(li);
    }
    replayButtons(this.el.replay, (ply) => this.go(ply), () => this.ply, () => this.moves.length);
  }

  renderControls() {
    const flip = h('button', { type: 'button', class: 'secondary' }, t('game.flip'));
    flip.addEventListener('click', () => {
      this.flipped = !this.flipped;
      this.renderBoard();
    });
    const games = /** @type {HTMLSelectElement} */ (h('select', { 'aria-label': t('analysis.game') }, ...GAMES.map((k) => h('option', { value: k }, gameName(k)))));
    games.value = this.kind;
    games.addEventListener('change', () => {
      location.hash = analysisLink(/** @type {GameKind} */ (games.value));
    });
    const q = new URLSearchParams();
    if (this.answer) q.set('fen', this.answer.position.fen);
    if (this.options) q.set('options', this.options);
    const edit = h('a', { class: 'button secondary', href: `#/editor/${this.kind}?${q}`, 'data-action': 'edit' }, t('analysis.edit'));
    this.el.controls.replaceChildren(flip, edit, games);
  }
}
