// The evaluation graph of a reviewed game: the first seat's win chance after every move,
// drawn as SVG under the board. A click on the graph (or on a move's column) goes to that
// ply of the replay; for keyboards the graph is a slider that the replay's arrow keys move.

import { t } from './i18n.js';
import { el } from './svg.js';

/** @typedef {import('./types.js').Review} Review */
/** @typedef {import('./types.js').Judgement} Judgement */

const W = 600;
const H = 110;
/** Space left and right so the first and last points' marks are whole. */
const PAD = 6;

/**
 * The first seat's win chance at each ply, 0 (the start) to the number of moves, clipped
 * to 0…1: the start from the first move's "before", every later ply from the move that led
 * to it (its mover's value turned to the first seat's view).
 * @param {Review} review
 * @returns {number[]}
 */
export function winChances(review) {
  const first = (/** @type {number} */ seat, /** @type {number} */ w) => Math.min(1, Math.max(0, seat === 0 ? w : 1 - w));
  const p = review.plies;
  if (!p.length) return [];
  return [first(p[0].seat, p[0].win_before), ...p.map((m) => first(m.seat, m.win_after))];
}

export class EvalGraph {
  /** @param {(ply: number) => void} onPick goes to a ply of the replay */
  constructor(onPick) {
    this.onPick = onPick;
    this.svg = el('svg', { class: 'evalgraph', viewBox: `0 0 ${W} ${H}`, role: 'slider', tabindex: 0, 'aria-label': t('review.graph_label'), 'aria-valuemin': 0 });
    /** @type {number[]} */
    this.points = [];
    this.svg.addEventListener('click', (e) => {
      const ply = this.plyAt(e);
      if (ply !== null) this.onPick(ply);
    });
  }

  /** The x of a ply. @param {number} ply */
  x(ply) {
    const n = Math.max(1, this.points.length - 1);
    return PAD + (ply * (W - 2 * PAD)) / n;
  }

  /** The y of a win chance (the first seat's at the bottom, as its share of the height). @param {number} w */
  y(w) {
    return H * (1 - w);
  }

  /** The ply nearest a click. @param {MouseEvent} e */
  plyAt(e) {
    const m = this.svg.getScreenCTM();
    if (!m || this.points.length < 2) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const n = this.points.length - 1;
    return Math.max(0, Math.min(n, Math.round(((p.x - PAD) * n) / (W - 2 * PAD))));
  }

  /**
   * Draws the graph.
   * @param {number[]} points the first seat's win chance per ply ({@link winChances})
   * @param {(Judgement|null)[]} marks the judgement of each move (index: the move's ply)
   * @param {number} current the ply shown
   * @param {(ply: number) => string} describe the words for a ply (its move and value)
   */
  draw(points, marks, current, describe) {
    this.points = points;
    const svg = this.svg;
    svg.replaceChildren();
    const n = points.length - 1;
    if (n < 1) return;
    svg.setAttribute('aria-valuemax', String(n));
    svg.setAttribute('aria-valuenow', String(current));
    svg.setAttribute('aria-valuetext', describe(current));
    el('rect', { x: 0, y: 0, width: W, height: H, class: 'eg-bg' }, svg);
    const line = points.map((w, i) => `${this.x(i).toFixed(1)},${this.y(w).toFixed(1)}`);
    // The area reaches both edges, level with the first and last points.
    const ends = [`0,${H}`, `0,${this.y(points[0]).toFixed(1)}`, ...line, `${W},${this.y(points[n]).toFixed(1)}`, `${W},${H}`];
    el('polygon', { class: 'eg-area', points: ends.join(' ') }, svg);
    el('line', { class: 'eg-mid', x1: 0, x2: W, y1: H / 2, y2: H / 2 }, svg);
    el('polyline', { class: 'eg-line', points: line.join(' ') }, svg);
    el('line', { class: 'eg-current', x1: this.x(current), x2: this.x(current), y1: 0, y2: H }, svg);
    // A column per ply: the click target, named for people who hover it.
    const step = (W - 2 * PAD) / n;
    for (let i = 0; i <= n; i++) {
      const hit = el('rect', { class: 'eg-hit', 'data-ply': i, x: this.x(i) - step / 2, y: 0, width: step, height: H }, svg);
      el('title', {}, hit).textContent = describe(i);
    }
    // Marked moves: a dot of the judgement's colour at the position the move left.
    marks.forEach((j, ply) => {
      if (!j) return;
      el('circle', { class: `eg-mark ${j}`, 'data-ply': ply + 1, cx: this.x(ply + 1), cy: this.y(points[ply + 1]), r: 4.5 }, svg);
    });
    el('circle', { class: 'eg-point', cx: this.x(current), cy: this.y(points[current]), r: 5 }, svg);
  }
}
