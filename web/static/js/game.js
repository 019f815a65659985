// The game screen: a player's, a hot-seat pair's or a spectator's view of one game, kept in
// step with the server's versioned events.

import { Board } from './board.js';
import { play } from './sound.js';
import { t, pieceName } from './i18n.js';
import { pieceIcon } from './pieces.js';
import { ChatPanel } from './chat.js';
import { GameReview, MARKS, judgementName, evalText } from './review.js';
import { analysisLink } from './analysis.js';
import { h, rememberGame, seatName, seatColour, resultText, download, prefs, gameName, profileLink, ratingText, replayButtons } from './ui.js';

/** @typedef {import('./types.js').Snapshot} Snapshot */
/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').LegalMove} LegalMove */
/** @typedef {import('./types.js').PublicPosition} PublicPosition */
/** @typedef {import('./types.js').Seat} Seat */
/** @typedef {import('./types.js').GameEvent} GameEvent */
/** @typedef {import('./types.js').TallyEntry} TallyEntry */
/** @typedef {import('./types.js').Reveal} Reveal */
/** @typedef {import('./net.js').Net} Net */

/** A running clock under this many milliseconds is low: it turns red and sounds once. */
const LOW_MS = 20000;

/**
 * Squares named in a move text: a file letter followed by the rank's digits.
 * @param {string} mv
 */
export function squaresOf(mv) {
  return mv.match(/[a-z]\d+/g) ?? [];
}

export class GameView {
  /**
   * @param {HTMLElement} root
   * @param {Net} net
   * @param {string} id
   */
  constructor(root, net, id) {
    this.root = root;
    this.net = net;
    this.id = id;
    /** @type {Snapshot|null} */
    this.snap = null;
    /** @type {(PublicPosition|null)[]} the position after each ply, index 0 the start */
    this.positions = [];
    /** @type {number|null} the ply shown while replaying; null follows the game */
    this.viewPly = null;
    this.clockAt = performance.now();
    /** @type {TallyEntry[]} */
    this.tally = [];
    /** @type {string|null} */
    this.proposal = null;
    /** @type {{hits: number, total: number}|null} */
    this.score = null;
    /** @type {import('./types.js').RatingChanges|null} how the end moved the players' ratings */
    this.ratingChanges = null;
    /** @type {string} */
    this.revealText = '';
    /** @type {Map<string, string>} display texts of moves listed lately (spectators' proposals) */
    this.displays = new Map();
    this.showZones = false;
    /** @type {Record<Seat, {online: boolean, claimAt: number|null}>} */
    this.presence = { first: { online: true, claimAt: null }, second: { online: true, claimAt: null } };
    this.flipped = false;
    this.flipSet = false;
    this.lowSounded = false;
    this.animateNext = false;
    this.chat = new ChatPanel(net, id);
    this.review = new GameReview(id, (ply) => void this.view(ply), () => this.render());
    this.el = this.build();
    this.board = new Board(this.el.boardHost, (mv) => this.pick(mv));
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.unsub = [
      net.on((m) => this.onMessage(m)),
      net.follow(() => [{ t: 'watch', game: id, since: this.snap ? this.snap.v : null }]),
      net.onStatus(() => this.render()),
    ];
    this.timer = setInterval(() => this.tick(), 100);
  }

  destroy() {
    for (const u of this.unsub) u();
    clearInterval(this.timer);
    this.review.stop();
    document.removeEventListener('keydown', this.onKey);
    this.net.send({ t: 'unwatch', game: this.id });
  }

  build() {
    this.root.replaceChildren();
    const e = {
      status: h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
      top: h('div', { class: 'player top' }),
      bottom: h('div', { class: 'player bottom' }),
      boardHost: h('div', { class: 'board-host' }),
      moves: h('ol', { class: 'moves', 'aria-label': t('game.moves') }),
      controls: h('div', { class: 'controls' }),
      offers: h('div', { class: 'offers' }),
      spect: h('div', { class: 'spectate', hidden: '' }),
      end: h('div', { class: 'end', hidden: '' }),
      entry: /** @type {HTMLInputElement} */ (h('input', { id: 'move-entry', 'aria-label': t('game.entry_label'), placeholder: t('game.entry_placeholder_none'), autocomplete: 'off', enterkeyhint: 'send' })),
      entryError: h('span', { class: 'entry-error', role: 'alert' }),
      announce: h('div', { class: 'sr-only', 'aria-live': 'assertive' }),
      replay: h('div', { class: 'replay' }),
      info: h('div', { class: 'info' }),
      legend: h('details', { class: 'legend' }),
    };
    const form = h('form', { class: 'entry' }, e.entry, h('button', { type: 'submit' }, t('game.play')), e.entryError);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      e.entryError.textContent = this.board?.typed(e.entry.value) ?? '';
      if (!e.entryError.textContent) e.entry.value = '';
    });
    this.root.append(
      h('section', { class: 'game' },
        h('div', { class: 'board-col' }, e.status, e.top, e.boardHost, e.bottom, this.review.below),
        h('div', { class: 'side-col' }, e.info, e.offers, e.end, this.review.box, e.spect, e.replay, e.moves, form, e.controls, this.chat.el, e.legend),
      ),
      e.announce,
    );
    return e;
  }

  /** @param {LegalMove} mv */
  pick(mv) {
    const s = this.snap;
    if (!s) return;
    const ply = s.moves.length;
    if (s.you === 'spectator') {
      this.net.send({ t: 'propose', game: this.id, ply, mv: mv.mv });
      this.proposal = mv.mv;
      this.render();
      return;
    }
    if (!this.net.send({ t: 'move', game: this.id, ply, mv: mv.mv })) {
      this.el.entryError.textContent = t('game.not_sent');
      return;
    }
    // Nothing is played locally: the board waits for the server's event.
    s.legal = null;
    this.render();
  }

  /** Replay keys: arrows and Home/End, unless the player is typing. @param {KeyboardEvent} e */
  key(e) {
    const s = this.snap;
    const target = /** @type {HTMLElement} */ (e.target);
    if (!s || target.closest?.('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') {
      // Drops a premove or a half-made move, as a right click does.
      this.board.cancel();
      return;
    }
    const cur = this.viewPly ?? s.moves.length;
    const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: s.moves.length, ArrowUp: 0, ArrowDown: s.moves.length }[e.key];
    if (to === undefined) {
      // Typing a move anywhere starts the move box (`h2e2`, `C2=5`).
      if (e.key.length === 1 && /[a-zA-Z]/.test(e.key) && s.legal && !target.closest?.('button, a')) {
        this.el.entry.focus();
      }
      return;
    }
    e.preventDefault();
    void this.view(to);
  }

  /** @param {ServerMsg} m */
  onMessage(m) {
    if (!('game' in m) || m.game !== this.id) {
      if (m.t === 'snapshot' && m.game === this.id) this.onSnapshot(m);
      // The socket's flood limit names no game: the chat tells whether it was its line.
      if (m.t === 'error' && !m.game) this.chat.refused(m.code);
      return;
    }
    switch (m.t) {
      case 'snapshot':
        this.onSnapshot(m);
        break;
      case 'event':
        // A rated game's end carries the players' rating changes, shown with the result.
        if (m.ratings) this.ratingChanges = m.ratings;
        this.onEvent(m.v, m.event, m.legal ?? null);
        // Spectators: the move's reveal comes with it, with their own score.
        if (m.reveal) this.onReveal(m.reveal);
        if (m.score) this.onScore(m.score);
        break;
      case 'clock':
        if (this.snap) this.snap.clock = m.clock;
        this.clockAt = performance.now();
        this.renderClocks();
        break;
      case 'spectators':
        if (this.snap) this.snap.spectators = m.count;
        this.renderInfo();
        break;
      case 'presence':
        this.presence[m.seat] = { online: m.online, claimAt: m.claim_in_ms != null ? performance.now() + m.claim_in_ms : null };
        if (this.snap) this.snap.players[m.seat === 'first' ? 0 : 1].online = m.online;
        this.render();
        break;
      case 'proposal_ok':
        this.proposal = m.mv;
        this.renderSpectate();
        break;
      case 'crowd_judged':
        // Spectators: the engine's word on a ply already played.
        if (this.snap) {
          this.snap.crowd_judged = [...(this.snap.crowd_judged ?? []).filter((j) => j.ply !== m.judged.ply), m.judged];
          this.renderSpectate();
        }
        break;
      case 'tally':
        this.tally = m.counts;
        this.renderSpectate();
        this.renderBoard();
        break;
      case 'score':
        this.onScore(m);
        break;
      case 'held':
        // The server cannot save moves: the clocks are stopped until it can (a `clock`
        // message follows).
        this.el.entryError.textContent = t(m.held ? 'game.held' : 'game.unheld');
        break;
      case 'chat':
        this.chat.add(m);
        break;
      case 'error':
        if (this.chat.refused(m.code)) break;
        this.el.entryError.textContent = m.message;
        if (m.code === 'stale_ply' || m.code === 'not_your_turn' || m.code === 'illegal_move') {
          // Our view is behind: ask for what we missed.
          this.net.send({ t: 'watch', game: this.id, since: this.snap ? this.snap.v : null });
        }
        break;
      default:
        break;
    }
  }

  /** @param {Snapshot} s */
  onSnapshot(s) {
    this.snap = s;
    // The snapshot has the start and the current position; the ones between come from the
    // server when a replay needs them (at once for a finished game).
    this.positions = Array.from({ length: s.moves.length + 1 }, () => null);
    this.positions[0] = s.start;
    this.positions[s.moves.length] = s.position;
    this.clockAt = performance.now();
    if (!this.flipSet) this.flipped = s.you === 'second';
    this.chat.reset(s.chat, s.you, s.players.some((p) => p.ai));
    this.remember(s.legal);
    rememberGame(this.snap);
    if (s.result && s.moves.length > 1) void this.fetchPositions();
    if (s.result && s.moves.length) this.review.start();
    this.render();
    this.renderLegend();
  }

  /** Keeps the display texts of listed moves (proposals are shown as the move list writes them). */
  /** @param {LegalMove[]|null} legal */
  remember(legal) {
    for (const m of legal ?? []) this.displays.set(m.mv, m.display);
    if (this.displays.size > 2000) this.displays = new Map([...this.displays].slice(-1000));
  }

  /** @param {string} mv */
  shown(mv) {
    return this.displays.get(mv) ?? mv;
  }

  /**
   * Asks the server for the position after every move (for replay) and keeps them if they
   * belong to the version shown; a move crossing the request makes it ask again.
   * @returns {Promise<boolean>} whether every position is now known
   */
  async fetchPositions() {
    for (let attempt = 0; attempt < 3; attempt++) {
      const s = this.snap;
      if (!s) return false;
      try {
        const r = await fetch(`/api/game/${encodeURIComponent(this.id)}/positions`);
        if (!r.ok) return false;
        /** @type {import('./types.js').Positions} */
        const got = await r.json();
        if (this.snap === s && got.v === s.v && got.positions.length === s.moves.length + 1) {
          this.positions = got.positions;
          return true;
        }
      } catch {
        return false;
      }
      await new Promise((done) => setTimeout(done, 300));
    }
    return false;
  }

  /** This spectator's score of proposals. @param {{hits: number, total: number}} s */
  onScore(s) {
    this.score = { hits: s.hits, total: s.total };
    this.renderSpectate();
  }

  /** How a ply's proposals went, shown to spectators after the move. @param {Reveal} r */
  onReveal(r) {
    const top = r.counts[0];
    const played = this.snap?.moves[r.ply]?.display ?? this.shown(r.played);
    this.revealText = t('spect.reveal', { n: r.ply + 1, move: played, count: r.matched }) +
      (top ? ' ' + t('spect.favourite', { move: this.shown(top.mv), n: top.n }) : '');
    if (this.snap) this.snap.crowd = r.crowd;
    this.tally = [];
    this.proposal = null;
    this.renderSpectate();
    this.renderBoard();
  }

  /**
   * @param {number} v
   * @param {GameEvent} ev
   * @param {LegalMove[]|null} legal
   */
  onEvent(v, ev, legal) {
    const s = this.snap;
    if (!s) return;
    if (v <= s.v) return; // already have it (a replay after reconnecting)
    if (v !== s.v + 1) {
      // A gap: ask for the events we missed.
      this.net.send({ t: 'watch', game: this.id, since: s.v });
      return;
    }
    s.v = v;
    this.remember(legal);
    switch (ev.e) {
      case 'moved': {
        const before = s.position.pieces;
        s.moves.push({ mv: ev.mv, display: ev.display, seat: ev.seat });
        s.position = ev.position;
        this.positions[ev.ply + 1] = ev.position;
        this.positions.length = s.moves.length + 1;
        s.clock = ev.clock;
        this.clockAt = performance.now();
        s.legal = legal;
        s.offers = s.offers.filter(([k]) => k === 'rematch');
        this.animateNext = this.viewPly === null;
        play(soundOf(before, ev.position, ev.mv));
        this.el.announce.textContent = t(ev.position.check ? 'game.played_check' : 'game.played', { seat: seatName(s, ev.seat), move: ev.display });
        break;
      }
      case 'offered':
        s.offers = [...s.offers.filter(([k, seat]) => !(k === ev.kind && seat === ev.seat)), [ev.kind, ev.seat]];
        play('notify');
        break;
      case 'declined':
        s.offers = s.offers.filter(([k]) => k !== ev.kind);
        break;
      case 'taken_back':
        s.moves.splice(s.moves.length - ev.moves, ev.moves);
        this.positions.length = s.moves.length + 1;
        this.positions[s.moves.length] = ev.position;
        s.position = ev.position;
        s.clock = ev.clock;
        this.clockAt = performance.now();
        s.legal = legal;
        s.offers = [];
        // What spectators were shown about the moves taken back no longer holds.
        this.revealText = '';
        this.tally = [];
        this.proposal = null;
        break;
      case 'ended':
        s.result = ev.result;
        s.clock = ev.clock;
        this.clockAt = performance.now();
        s.crowd = ev.crowd;
        if (ev.seed) s.seed = ev.seed;
        s.legal = null;
        s.offers = [];
        play('end');
        this.el.announce.textContent = resultText(s);
        // The server queues the review once the game's end is stored, which may come a
        // little after this event on a busy store: ask again for a while until it is there.
        if (s.moves.length) this.review.start(20);
        break;
      case 'rematch':
        s.rematch = ev.game;
        break;
    }
    if (this.viewPly !== null && ev.e !== 'moved') this.viewPly = null;
    rememberGame(s);
    this.render();
  }

  // ---- rendering ------------------------------------------------------------------------

  render() {
    if (!this.snap) {
      this.el.status.textContent = this.net.status === 'open' ? t('game.loading') : t('conn.connecting');
      return;
    }
    this.renderBoard();
    this.renderPlayers();
    this.renderClocks();
    this.renderStatus();
    this.renderControls();
    this.renderOffers();
    this.renderMoves();
    this.review.render(this.snap, this.viewPly ?? this.snap.moves.length, !!this.net.user, this.net.user?.id ?? null);
    this.renderSpectate();
    this.renderEnd();
    this.renderInfo();
  }

  get live() {
    return this.viewPly === null;
  }

  /** The colour of the pieces this page plays (premoves), when it plays one seat. */
  myColour() {
    const s = /** @type {Snapshot} */ (this.snap);
    if (s.you !== 'first' && s.you !== 'second') return null;
    return seatColour(s, s.you);
  }

  renderBoard() {
    const s = /** @type {Snapshot} */ (this.snap);
    const g = s.geometry;
    const ply = this.viewPly ?? s.moves.length;
    const pos = this.positions[ply] ?? s.position;
    const lastMv = ply > 0 ? s.moves[ply - 1] : null;
    const online = this.net.status === 'open';
    const canAct = online && this.live && !s.result && s.legal && s.legal.length ? s.legal : null;
    const zones = (this.showZones && pos.air_defence) || { first: [], second: [] };
    // A finished game's review: the engine's best move in the shown position.
    const best = s.result ? this.review.at(ply)?.best : null;
    const marks = s.you === 'spectator' ? [this.proposal ?? this.tally[0]?.mv].filter((x) => x != null).flatMap((mv) => squaresOf(/** @type {string} */ (mv)).slice(-1)) : [];
    const waiting = online && this.live && !s.result && !canAct;
    this.board.set({
      kind: s.kind,
      geometry: g,
      pieces: pos.pieces,
      legal: canAct,
      lastMove: lastMv ? squaresOf(lastMv.mv) : [],
      check: pos.check,
      flipped: this.flipped,
      pieceSet: prefs().pieceSet,
      zones,
      marks,
      premoveColour: waiting ? this.myColour() : null,
      arrows: best ? [squaresOf(best)] : [],
      animate: this.animateNext,
    });
    this.animateNext = false;
    // The entry's example is a move of this game that can be played now, in both of the
    // forms it reads (a Xiangqi example on a Banqi board would only mislead).
    const example = canAct ? canAct[0] : null;
    this.el.entry.placeholder = example
      ? t('game.entry_placeholder', { example: example.display === example.mv ? example.mv : `${example.mv} / ${example.display}` })
      : t('game.entry_placeholder_none');
    this.el.boardHost.classList.toggle('waiting', !canAct);
    this.el.boardHost.classList.toggle('offline', !online);
    this.el.boardHost.classList.toggle('in-check', !!pos.check);
  }

  renderPlayers() {
    const s = /** @type {Snapshot} */ (this.snap);
    const seatAt = (/** @type {'top'|'bottom'} */ where) => (where === 'bottom') !== this.flipped ? 'first' : 'second';
    for (const where of /** @type {const} */ (['top', 'bottom'])) {
      const seat = seatAt(where);
      const p = s.players[seat === 'first' ? 0 : 1];
      const box = this.el[where];
      box.dataset.seat = seat;
      // Hot-seat: both seats are this page, never away.
      const away = s.you !== 'both' && !p.online && !p.ai && !s.result ? h('span', { class: 'away' }, ' ' + this.awayText(seat)) : '';
      const toMove = !s.result && s.position.to_move === seat;
      box.classList.toggle('to-move', toMove);
      box.replaceChildren(
        h('span', { class: `seat-dot ${seatColour(s, seat) ?? 'unknown'}` }),
        // People's names link to their profiles; the engine has none.
        h('span', { class: 'name' }, p.ai ? aiName(p.name) : profileLink(p.name), p.rating ? ` (${ratingText({ rating: p.rating, provisional: !!p.provisional })})` : ''),
        h('span', { class: 'seat-name' }, ` · ${seatName(s, seat)}`),
        away,
        h('span', { class: 'clock', 'data-clock': seat }),
      );
    }
  }

  /** "(offline)", or the grace period's countdown, or that the win may be claimed. @param {Seat} seat */
  awayText(seat) {
    const at = this.presence[seat].claimAt;
    if (at === null) return t('game.offline');
    const left = Math.ceil((at - performance.now()) / 1000);
    return left > 0 ? t('game.left_claim_in', { s: left }) : t('game.left_claim_now');
  }

  tick() {
    const s = this.snap;
    if (!s) return;
    this.renderClocks();
    // The countdown beside a player who left.
    for (const where of /** @type {const} */ (['top', 'bottom'])) {
      const box = this.el[where];
      const away = box.querySelector('.away');
      const seat = /** @type {Seat} */ (box.dataset.seat);
      if (away && seat) away.textContent = ' ' + this.awayText(seat);
    }
    // The opponent's grace period ran out: offer the claim without waiting for a message.
    const opp = this.presence[s.you === 'first' ? 'second' : 'first'];
    const claimable = (s.you === 'first' || s.you === 'second') && !opp.online && opp.claimAt !== null && performance.now() >= opp.claimAt;
    if (claimable && !s.result && !this.el.controls.querySelector('[data-action="claim"]')) this.renderControls();
  }

  renderClocks() {
    const s = this.snap;
    if (!s) return;
    if (s.time_control.initial_ms === 0) {
      for (const c of this.root.querySelectorAll('.clock')) c.textContent = '';
      return;
    }
    for (const c of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll('.clock'))) {
      const seat = /** @type {Seat} */ (c.dataset.clock);
      let ms = s.clock.remaining_ms[seat === 'first' ? 0 : 1];
      const running = s.clock.running === seat && !s.result;
      if (running) ms = Math.max(0, ms - (performance.now() - this.clockAt));
      const tenths = ms < 10000 && running;
      const secs = tenths ? ms / 1000 : Math.ceil(ms / 1000);
      c.textContent = s.time_control.days_per_move ? daysLeft(ms)
        : tenths ? secs.toFixed(1) : `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
      c.classList.toggle('running', running);
      const low = running && ms < LOW_MS;
      c.classList.toggle('low', low);
      // While replaying, the clocks are today's, not the shown move's: dimmed.
      c.classList.toggle('stale', !this.live);
      if (low && seat === s.you && !this.lowSounded) {
        this.lowSounded = true;
        play('low');
      }
      if (!low && seat === s.you) this.lowSounded = false;
    }
  }

  renderStatus() {
    const s = /** @type {Snapshot} */ (this.snap);
    const st = this.el.status;
    st.classList.toggle('reconnecting', this.net.status !== 'open');
    st.classList.remove('check', 'replaying');
    if (this.net.status !== 'open') {
      st.textContent = t('game.reconnecting');
      return;
    }
    if (!this.live) {
      // Replay says what it shows, with a way back.
      st.classList.add('replaying');
      const back = h('button', { type: 'button', class: 'secondary', 'data-nav': 'live' }, s.result ? t('replay.to_end') : t('replay.back_live'));
      back.addEventListener('click', () => this.view(s.moves.length));
      const ply = /** @type {number} */ (this.viewPly);
      const m = s.moves[ply - 1];
      st.replaceChildren(ply === 0 ? t('replay.start') : t('replay.move', { n: ply, of: s.moves.length, move: m.display || m.mv }), ' ', back);
      return;
    }
    if (s.result) {
      st.textContent = resultText(s);
      return;
    }
    const pos = s.position;
    if (!pos.to_move) {
      st.textContent = '';
      return;
    }
    const mover = seatName(s, pos.to_move);
    const you = s.you;
    let text;
    if (you === 'spectator') text = t('game.spectator_turn', { seat: mover });
    else if (you === 'both' || you === pos.to_move) text = t(pos.in_check ? 'game.your_move_check' : 'game.your_move', { seat: mover });
    else text = t(pos.in_check ? 'game.waiting_check' : 'game.waiting', { seat: mover });
    st.classList.toggle('check', pos.in_check);
    st.textContent = text;
  }

  renderControls() {
    const s = /** @type {Snapshot} */ (this.snap);
    const c = this.el.controls;
    const player = s.you !== 'spectator';
    const over = !!s.result;
    const btn = (/** @type {string} */ label, /** @type {string} */ name, /** @type {() => void} */ f, disabled = false) => {
      const b = h('button', { 'data-action': name, type: 'button', class: 'secondary' }, label);
      if (disabled) b.setAttribute('disabled', '');
      b.addEventListener('click', f);
      return b;
    };
    const items = [
      btn(t('game.flip'), 'flip', () => {
        this.flipped = !this.flipped;
        this.flipSet = true;
        this.render();
      }),
    ];
    // Zones exist where the server sends them (Commander Chess).
    if (s.position.air_defence)
      items.push(btn(this.showZones ? t('game.hide_air') : t('game.show_air'), 'zones', () => {
        this.showZones = !this.showZones;
        this.render();
      }));
    if (player && !over) {
      if (s.you === 'both') {
        items.push(btn(t('game.undo'), 'undo', () => this.net.send({ t: 'offer', game: this.id, kind: 'takeback' }), s.moves.length === 0 || s.rated));
      } else {
        items.push(btn(t('game.offer_draw'), 'draw', () => this.net.send({ t: 'offer', game: this.id, kind: 'draw' })));
        items.push(btn(t('game.ask_takeback'), 'takeback', () => this.net.send({ t: 'offer', game: this.id, kind: 'takeback' }), s.moves.length === 0 || s.rated));
      }
      if (s.moves.length < 2) items.push(btn(t('game.abort'), 'abort', () => this.net.send({ t: 'abort', game: this.id })));
      items.push(btn(t('game.resign'), 'resign', () => {
        if (confirm(t('game.resign_confirm'))) this.net.send({ t: 'resign', game: this.id });
      }));
      const opp = s.you === 'first' ? 'second' : 'first';
      const pres = this.presence[opp];
      if (s.you !== 'both' && !pres.online && pres.claimAt && performance.now() >= pres.claimAt) {
        const claim = btn(t('game.claim'), 'claim', () => this.net.send({ t: 'claim', game: this.id }));
        claim.classList.remove('secondary');
        items.unshift(claim);
      }
    }
    if (player && over && s.you !== 'both' && !s.rematch)
      items.push(btn(t('game.rematch'), 'rematch', () => this.net.send({ t: 'offer', game: this.id, kind: 'rematch' })));
    if (over && s.rematch) {
      const a = h('a', { href: `#/game/${s.rematch}`, class: 'button' }, t('game.to_rematch'));
      items.push(/** @type {HTMLButtonElement} */ (/** @type {unknown} */ (a)));
    }
    items.push(btn(t('game.export'), 'export', () => void this.exportRecord()));
    const rules = h('a', { href: `/rules/${s.kind}.html`, target: '_blank', class: 'button secondary' }, t('game.rules'));
    c.replaceChildren(...items, rules);
  }

  renderOffers() {
    const s = /** @type {Snapshot} */ (this.snap);
    const box = this.el.offers;
    box.replaceChildren();
    for (const [kind, seat] of s.offers) {
      const mine = s.you === seat || s.you === 'both';
      const what = t(`offer.${kind}`);
      if (s.you === 'spectator') {
        box.append(h('p', {}, t('offer.seat_offers', { seat: seatName(s, seat), what })));
        continue;
      }
      if (mine) {
        box.append(h('p', { 'data-offer': kind }, t('offer.you_offered', { what })));
        continue;
      }
      const yes = h('button', { 'data-accept': kind, type: 'button' }, t('offer.accept'));
      yes.addEventListener('click', () => this.net.send({ t: 'accept', game: this.id, kind }));
      const no = h('button', { 'data-decline': kind, type: 'button', class: 'secondary' }, t('offer.decline'));
      no.addEventListener('click', () => this.net.send({ t: 'decline', game: this.id, kind }));
      box.append(h('p', { 'data-offer': kind }, t('offer.opponent_offers', { what }), ' ', yes, ' ', no));
    }
  }

  renderMoves() {
    const s = /** @type {Snapshot} */ (this.snap);
    const list = this.el.moves;
    list.replaceChildren();
    // Two half-moves per line, numbered, like a score sheet.
    for (let i = 0; i < s.moves.length; i += 2) {
      const li = h('li', {});
      for (const j of [i, i + 1]) {
        const m = s.moves[j];
        if (!m) continue;
        const b = h('button', { type: 'button', class: `mv seat-${m.seat}`, 'data-ply': String(j + 1) }, m.display || m.mv);
        // The review's judgement: its mark and colour, and its name for screen readers.
        const judged = this.review.judgement(j);
        if (judged) {
          b.dataset.judgement = judged;
          b.setAttribute('aria-label', `${m.display || m.mv} ${MARKS[judged]} ${judgementName(judged)}`);
          b.append(h('span', { class: `judgement ${judged}`, title: judgementName(judged), 'aria-hidden': 'true' }, MARKS[judged]));
        }
        if ((this.viewPly ?? s.moves.length) === j + 1) b.classList.add('current');
        b.addEventListener('click', () => this.view(j + 1));
        li.append(b);
      }
      list.append(li);
    }
    replayButtons(this.el.replay, (ply) => void this.view(ply), () => this.viewPly ?? s.moves.length, () => s.moves.length);
    // Keep the shown move in view (the last one while following the game).
    const current = /** @type {HTMLElement|null} */ (list.querySelector('.current'));
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    } else if (this.live) list.scrollTop = list.scrollHeight;
  }

  /** @param {number} ply */
  async view(ply) {
    const s = this.snap;
    if (!s) return;
    const p = Math.max(0, Math.min(s.moves.length, ply));
    if (!this.positions[p] && !(await this.fetchPositions())) {
      this.el.entryError.textContent = t('game.no_position');
      return;
    }
    if (this.snap !== s || p > s.moves.length) return;
    const was = this.viewPly ?? s.moves.length;
    this.viewPly = p === s.moves.length ? null : p;
    // Stepping forward one move animates it, as it was played.
    this.animateNext = p === was + 1;
    this.render();
  }

  renderSpectate() {
    const s = this.snap;
    const box = this.el.spect;
    // Players never see proposals, and nobody proposes once the game is over: the box stays
    // empty and hidden.
    if (!s || s.you !== 'spectator' || s.result) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    const items = [h('h3', {}, t('spect.title'))];
    items.push(h('p', { class: 'my-proposal' }, this.proposal ? t('spect.yours', { move: this.shown(this.proposal) }) : t('spect.how')));
    if (this.tally.length) {
      const total = this.tally.reduce((a, x) => a + x.n, 0);
      items.push(h('ul', { class: 'tally' }, ...this.tally.slice(0, 5).map((x) =>
        h('li', {}, h('span', { class: 'bar', style: `width:${Math.round((100 * x.n) / total)}%` }), `${this.shown(x.mv)} — ${x.n}`))));
    }
    if (this.revealText) items.push(h('p', { class: 'reveal' }, this.revealText));
    if (this.score) items.push(h('p', { class: 'score' }, t('spect.score', { hits: this.score.hits, total: this.score.total })));
    if (s.crowd) items.push(h('p', { class: 'crowd' }, crowdText(s)));
    // The engine's word on the crowd's favourites of the plies played (a ply taken back is
    // no longer one), and on the shown move's ply.
    const judged = (s.crowd_judged ?? []).filter((j) => j.ply < s.moves.length);
    if (judged.length) {
      const found = judged.filter((j) => j.as_good).length;
      items.push(h('p', { class: 'crowd-judged' }, t('spect.judged', { found, of: judged.length })));
      const here = judged.find((j) => j.ply === (this.viewPly ?? s.moves.length) - 1);
      if (here) {
        const key = here.as_good ? 'review.crowd_ply_good' : 'review.crowd_ply_worse';
        items.push(h('p', { class: `review-crowd-ply ${here.as_good ? 'good' : 'worse'}` },
          t(key, { move: here.favourite_display || here.favourite, votes: here.votes, n: here.proposers, value: evalText(here.favourite_value, here.seat) })));
      }
    }
    box.replaceChildren(...items);
  }

  renderEnd() {
    const s = /** @type {Snapshot} */ (this.snap);
    const box = this.el.end;
    if (!s.result) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const items = [h('h3', {}, t('end.title')), h('p', { class: 'result' }, resultText(s))];
    if (s.crowd && (s.crowd.first.of || s.crowd.second.of)) items.push(h('p', { class: 'crowd' }, crowdText(s)));
    const changes = this.ratingChanges;
    if (changes) {
      items.push(h('ul', { class: 'rating-changes' }, ...changes.seats.map((c, i) =>
        h('li', { 'data-seat': i === 0 ? 'first' : 'second' }, profileLink(s.players[i].name), ` ${ratingText({ rating: c.after, provisional: c.provisional })} `,
          h('span', { class: c.diff >= 0 ? 'up' : 'down', 'data-diff': String(c.diff) }, c.diff >= 0 ? `+${c.diff}` : `−${-c.diff}`)))));
    }
    if (s.you === 'spectator' && this.score) items.push(h('p', { class: 'score' }, t('spect.score', { hits: this.score.hits, total: this.score.total })));
    if (s.seed) items.push(h('p', { class: 'seed' }, t('end.seed', { seed: s.seed }) + (s.commitment ? ` (${t('end.commitment')} ${s.commitment.slice(0, 16)}…)` : '')));
    // The analysis board from the shown position, the game's line kept after it.
    const moves = s.moves.map((m) => m.mv);
    items.push(h('a', { class: 'button secondary analyse', href: analysisLink(s.kind, { options: s.options, moves, ply: this.viewPly ?? moves.length }) }, t('analysis.open')));
    box.replaceChildren(...items);
  }

  renderInfo() {
    const s = this.snap;
    if (!s) return;
    const role = s.result ? 'finished' : { first: 'playing', second: 'playing', both: 'hotseat', spectator: 'watching' }[s.you];
    this.el.info.replaceChildren(
      h('h2', {}, gameName(s.kind)),
      h('p', {}, `${t(`role.${role}`)} · ${t(s.rated ? 'game.rated' : 'game.casual')} · ${t('game.watching_n', { n: s.spectators })}`),
    );
  }

  /** The pieces of this game with their pictures and names: the legend, folded away. */
  renderLegend() {
    const s = this.snap;
    if (!s) return;
    const g = s.geometry;
    const seen = new Set();
    const rows = [];
    for (const p of g.pieces) {
      if (seen.has(p.symbol) || p.colour === 'unknown') continue;
      seen.add(p.symbol);
      const both = g.pieces.filter((q) => q.symbol === p.symbol);
      rows.push(h('li', { 'data-symbol': p.symbol },
        ...both.map((q) => pieceIcon(g, q.letter, prefs().pieceSet, s.kind)),
        h('span', {}, both.map((q) => pieceName(q.symbol, q.colour)).filter((n, i, a) => a.indexOf(n) === i).join(' / '))));
    }
    this.el.legend.replaceChildren(h('summary', {}, t('game.legend')), h('ul', {}, ...rows), h('p', { class: 'note' }, t('game.legend_hint')));
  }

  async exportRecord() {
    const s = this.snap;
    if (!s) return;
    const name = `${s.kind}-${s.game}.txt`;
    if (s.result) {
      // The server's archive has the full record (with the Banqi seed): fetched and saved as
      // a file, not opened in a tab.
      try {
        const r = await fetch(`/api/game/${encodeURIComponent(s.game)}/export`);
        if (!r.ok) throw new Error(String(r.status));
        download(name, await r.text());
      } catch {
        this.el.entryError.textContent = t('game.export_failed');
      }
      return;
    }
    const lines = [
      `[Game "${s.kind}"]`,
      `[Site "${location.origin}/#/game/${s.game}"]`,
      `[First "${s.players[0].name}"]`,
      `[Second "${s.players[1].name}"]`,
      `[Options "${s.options}"]`,
      `[Start "${s.start.fen}"]`,
      '[Result "*"]',
      '',
    ];
    const body = [];
    for (let i = 0; i < s.moves.length; i += 2)
      body.push(`${i / 2 + 1}. ${s.moves[i].mv}${s.moves[i + 1] ? ' ' + s.moves[i + 1].mv : ''}`);
    download(name, lines.join('\n') + body.join('\n') + '\n');
  }
}

/**
 * Which sound a move makes: a flip (a face-down piece turned up), a check, a capture (fewer
 * pieces on the board) or a plain move.
 * @param {Record<string, string>} before
 * @param {PublicPosition} after
 * @param {string} mv
 * @returns {'flip'|'check'|'capture'|'move'}
 */
export function soundOf(before, after, mv) {
  if (after.check) return 'check';
  const [from] = squaresOf(mv);
  if (from && before[from] === 'X' && after.pieces[from] && after.pieces[from] !== 'X') return 'flip';
  const count = (/** @type {Record<string, string>} */ p) => Object.values(p).join('').replace(/[^A-Za-z]/g, '').length;
  return count(after.pieces) < count(before) ? 'capture' : 'move';
}

/** `AI level 3` in the page's language. @param {string} name */
function aiName(name) {
  const m = /^AI level (\d+)$/.exec(name);
  return m ? t('ai.level', { n: m[1] }) : name;
}

/** @param {Snapshot} s */
function crowdText(s) {
  const c = /** @type {import('./types.js').CrowdRecord} */ (s.crowd);
  return t('spect.crowd', { first: seatName(s, 'first'), a: c.first.agreed, of_a: c.first.of, second: seatName(s, 'second'), b: c.second.agreed, of_b: c.second.of });
}

/**
 * A correspondence clock's time left: days and hours, then hours, minutes and seconds in
 * its last day.
 * @param {number} ms
 */
function daysLeft(ms) {
  const secs = Math.ceil(ms / 1000);
  const hours = Math.floor(secs / 3600);
  if (hours >= 24) return t('clock.days_hours', { d: Math.floor(hours / 24), h: hours % 24 });
  return `${hours}:${String(Math.floor(secs / 60) % 60).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}`;
}
