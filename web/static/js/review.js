// A finished game's review by the engine (docs/analysis.md): fetched from the server (polled
// while it waits in line or runs, asked for when the game has none), then shown as the
// evaluation graph under the board, the judgement marks of the move list, the players'
// accuracy, and at the shown ply the engine's best move and line.

import { t } from './i18n.js';
import { h, seatName } from './ui.js';
import { EvalGraph, winChances } from './evalgraph.js';

/** @typedef {import('./types.js').Review} Review */
/** @typedef {import('./types.js').PlyReview} PlyReview */
/** @typedef {import('./types.js').ReviewStatus} ReviewStatus */
/** @typedef {import('./types.js').Judgement} Judgement */
/** @typedef {import('./types.js').Snapshot} Snapshot */
/** @typedef {import('./types.js').Eval} Eval */

/** The marks people write after a judged move. @type {Record<Judgement, string>} */
export const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** How often a waiting review is asked about. */
const POLL_MS = 1000;

/** A judgement's name in the page's language. @param {Judgement} j */
export function judgementName(j) {
  return { inaccuracy: t('review.inaccuracy'), mistake: t('review.mistake'), blunder: t('review.blunder') }[j];
}

/**
 * A value as people read it, from the first seat's view: pawns with two decimals, or `#3`
 * for a mate in three (`#-3`: the first seat is mated).
 * @param {Eval} value the mover's value
 * @param {number} seat the mover's seat (0 first)
 */
export function evalText(value, seat) {
  const sign = seat === 0 ? 1 : -1;
  if ('mate' in value) return `#${sign * value.mate}`;
  const cp = sign * value.cp;
  return `${cp > 0 ? '+' : cp < 0 ? '−' : ''}${(Math.abs(cp) / 100).toFixed(2)}`;
}

export class GameReview {
  /**
   * @param {string} id the game
   * @param {(ply: number) => void} goTo shows a ply of the replay
   * @param {() => void} onChange the review or its state changed: render again
   */
  constructor(id, goTo, onChange) {
    this.id = id;
    this.onChange = onChange;
    /** @type {ReviewStatus|null} null until asked */
    this.status = null;
    /** @type {string} a refusal or failure, in words */
    this.error = '';
    this.started = false;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.timer = null;
    this.stopped = false;
    /** The game just ended and its review is not queued yet: asking again soon. */
    this.expecting = false;
    this.graph = new EvalGraph(goTo);
    /** The summary beside the board (state, accuracy table, Banqi note). */
    this.box = h('section', { class: 'review', hidden: '', 'aria-label': t('review.title') });
    /** Under the board: the graph and what the engine says of the shown ply. */
    this.below = h('div', { class: 'review-below', hidden: '' });
    this.here = h('p', { class: 'review-here', 'aria-live': 'polite' });
    this.below.append(this.graph.svg, this.here);
  }

  /** @returns {Review|null} */
  get review() {
    return this.status?.state === 'done' ? this.status.review : null;
  }

  /**
   * Asks for the review once the game is over (again later while it waits).
   * @param {number} [retries] times to ask again when there is none yet (a game that just
   * ended may be queued a moment after its end reaches the page)
   */
  start(retries = 0) {
    if (this.started) return;
    this.started = true;
    void this.poll(retries);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** @param {number} retries */
  async poll(retries) {
    if (this.stopped) return;
    try {
      const r = await fetch(`/api/game/${encodeURIComponent(this.id)}/review`);
      if (!r.ok) throw new Error(String(r.status));
      this.status = /** @type {ReviewStatus} */ (await r.json());
    } catch {
      this.error = t('review.unavailable');
      this.onChange();
      return;
    }
    this.onChange();
    const state = this.status.state;
    this.expecting = state === 'none' && retries > 0;
    if (state === 'queued' || state === 'running' || (state === 'none' && retries > 0)) {
      this.timer = setTimeout(() => void this.poll(state === 'none' ? retries - 1 : 0), POLL_MS);
    }
  }

  /** Asks the server to review this game (an imported record has no review until asked). */
  async request() {
    this.error = '';
    try {
      const r = await fetch(`/api/game/${encodeURIComponent(this.id)}/review`, { method: 'POST', credentials: 'same-origin' });
      if (r.status === 429) this.error = t('review.limit');
      else if (r.status === 401 || r.status === 403) this.error = t('review.need_session');
      else if (!r.ok) this.error = t('review.failed');
      else {
        this.status = /** @type {ReviewStatus} */ (await r.json());
        if (this.status.state !== 'done') {
          if (this.timer) clearTimeout(this.timer);
          this.timer = setTimeout(() => void this.poll(0), POLL_MS);
        }
      }
    } catch {
      this.error = t('review.failed');
    }
    this.onChange();
  }

  /** The judgement of the move at index `i` (0 the first move). @param {number} i */
  judgement(i) {
    return this.review?.plies[i]?.judgement ?? null;
  }

  /** What the engine says of the position at `ply` (the move to play there), if reviewed. @param {number} ply */
  at(ply) {
    return this.review?.plies[ply] ?? null;
  }

  /**
   * Draws the summary and, under the board, the graph and the shown ply's best move.
   * @param {Snapshot} s
   * @param {number} ply the ply shown
   * @param {boolean} canAsk the page has a session to ask with
   * @param {string|null} [me] the page's user, whose own proposals the crowd summary scores
   */
  render(s, ply, canAsk, me = null) {
    // A game without moves (aborted) has nothing to review.
    const over = !!s.result && s.moves.length > 0;
    this.box.hidden = !over;
    const review = this.review;
    this.below.hidden = !over || !review || !review.plies.length;
    if (!over) return;
    const items = [h('h3', {}, t('review.title'))];
    const st = this.status;
    if (st?.state === 'queued') items.push(h('p', { class: 'review-state' }, t('review.queued', { n: st.position })));
    if (st?.state === 'running') items.push(h('p', { class: 'review-state' }, t('review.running')));
    if (st?.state === 'none' && this.expecting) items.push(h('p', { class: 'review-state' }, t('review.soon')));
    if (st?.state === 'none' && !this.expecting) {
      items.push(h('p', { class: 'review-state' }, t('review.none')));
      if (canAsk) {
        const ask = h('button', { type: 'button', 'data-action': 'request-review' }, t('review.request'));
        ask.addEventListener('click', () => void this.request());
        items.push(ask);
      }
    }
    if (this.error) items.push(h('p', { class: 'review-error', role: 'alert' }, this.error));
    if (review) items.push(...this.summary(s, review), ...this.crowdSummary(review, me));
    this.box.replaceChildren(...items);
    if (review) this.renderBelow(s, review, ply);
  }

  /** The accuracy table and notes. @param {Snapshot} s @param {Review} review */
  summary(s, review) {
    const seats = /** @type {const} */ (['first', 'second']);
    const count = (/** @type {number} */ seat, /** @type {Judgement} */ j) => String(review.plies.filter((p) => p.seat === seat && p.judgement === j).length);
    const head = h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('review.accuracy')),
      ...(/** @type {Judgement[]} */ (['inaccuracy', 'mistake', 'blunder'])).map((j) => h('th', { scope: 'col', class: j, title: judgementName(j) }, `${MARKS[j]} ${judgementName(j)}`)));
    const rows = seats.map((seat, i) => {
      const acc = review.accuracy[i];
      return h('tr', { 'data-seat': seat }, h('th', { scope: 'row' }, seatName(s, seat)),
        h('td', { class: 'accuracy' }, acc == null ? '–' : `${Math.round(acc)}%`),
        h('td', {}, count(i, 'inaccuracy')), h('td', {}, count(i, 'mistake')), h('td', {}, count(i, 'blunder')));
    });
    const out = [h('table', { class: 'review-table' }, h('thead', {}, head), h('tbody', {}, ...rows))];
    if (review.expectation) out.push(h('p', { class: 'note review-expectation' }, t('review.expectation')));
    if (review.depth) out.push(h('p', { class: 'note' }, t('review.depth', { n: review.depth })));
    return out;
  }

  /**
   * The crowd against the engine: how often the spectators' favourite was as good as the
   * move played, and the page user's own proposals judged the same way. Only a finished
   * game has a review, so a player never sees it while the game runs.
   * @param {Review} review @param {string|null} me
   */
  crowdSummary(review, me) {
    const crowd = review.crowd;
    if (!crowd || !crowd.plies.length) return [];
    const out = [h('h4', {}, t('review.crowd_title')),
      h('p', { class: 'review-crowd' }, t('review.crowd_found', { found: crowd.found, of: crowd.plies.length }))];
    const mine = me ? crowd.spectators[me] : undefined;
    if (mine) out.push(h('p', { class: 'review-crowd-you' }, t('review.crowd_you', { good: mine.good, of: mine.of })));
    return out;
  }

  /** @param {Snapshot} s @param {Review} review @param {number} ply */
  renderBelow(s, review, ply) {
    const points = winChances(review);
    const first = seatName(s, 'first');
    const describe = (/** @type {number} */ i) => {
      const p = `${Math.round(100 * points[i])}%`;
      if (i === 0) return t('review.point_start', { seat: first, p });
      const m = review.plies[i - 1];
      const mark = m.judgement ? MARKS[m.judgement] : '';
      return t('review.point', { n: i, move: (m.display || m.played) + mark, seat: first, p });
    };
    this.graph.draw(points, review.plies.map((p) => p.judgement), Math.min(ply, points.length - 1), describe);
    const parts = [];
    // The move that led here, judged: what was best instead.
    const last = review.plies[ply - 1];
    if (last?.judgement && last.best_display) {
      const key = { inaccuracy: 'review.was_inaccuracy', mistake: 'review.was_mistake', blunder: 'review.was_blunder' }[last.judgement];
      parts.push(h('span', { class: `review-was ${last.judgement}` }, t(key, { move: last.display || last.played, best: last.best_display })));
    }
    const here = review.plies[ply];
    if (here) {
      const value = evalText(here.before, here.seat);
      parts.push(h('span', { class: 'review-eval' }, t('review.eval', { seat: first, value })));
      if (here.best_display) parts.push(h('span', { class: 'review-best' }, t('review.best', { move: here.best_display })));
      const line = here.line_display?.length ? here.line_display : here.line;
      if (line.length) parts.push(h('span', { class: 'review-line' }, t('review.line', { line: line.join(' ') })));
      const crowd = review.crowd?.plies.find((c) => c.ply === ply);
      if (crowd) {
        const key = crowd.as_good ? 'review.crowd_ply_good' : 'review.crowd_ply_worse';
        parts.push(h('span', { class: `review-crowd-ply ${crowd.as_good ? 'good' : 'worse'}` },
          t(key, { move: crowd.favourite_display || crowd.favourite, votes: crowd.votes, n: crowd.proposers, value: evalText(crowd.favourite_value, here.seat) })));
      }
    }
    this.here.replaceChildren(...parts.flatMap((p, i) => (i ? [' ', p] : [p])));
  }
}
