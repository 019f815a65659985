// The game screen: a player's, a hot-seat pair's or a spectator's view of one game, kept in
// step with the server's versioned events.

import { Board } from './board.js';
import { play } from './sound.js';
import { h, GAME_NAMES, rememberGame, seatName, seatColour, resultText, download, prefs, savePrefs } from './ui.js';

/** @typedef {import('./types.js').Snapshot} Snapshot */
/** @typedef {import('./types.js').ServerMsg} ServerMsg */
/** @typedef {import('./types.js').LegalMove} LegalMove */
/** @typedef {import('./types.js').PublicPosition} PublicPosition */
/** @typedef {import('./types.js').Seat} Seat */
/** @typedef {import('./types.js').GameEvent} GameEvent */
/** @typedef {import('./types.js').TallyEntry} TallyEntry */
/** @typedef {import('./types.js').Reveal} Reveal */
/** @typedef {import('./net.js').Net} Net */

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
    /** @type {string} */
    this.revealText = '';
    this.showZones = false;
    /** @type {Record<Seat, {online: boolean, claimAt: number|null}>} */
    this.presence = { first: { online: true, claimAt: null }, second: { online: true, claimAt: null } };
    this.flipped = false;
    this.flipSet = false;
    this.el = this.build();
    this.board = new Board(this.el.boardHost, (mv) => this.pick(mv));
    this.unsub = [
      net.on((m) => this.onMessage(m)),
      net.follow(() => [{ t: 'watch', game: id, since: this.snap ? this.snap.v : null }]),
      net.onStatus(() => this.render()),
    ];
    this.timer = setInterval(() => this.renderClocks(), 100);
  }

  destroy() {
    for (const u of this.unsub) u();
    clearInterval(this.timer);
    this.net.send({ t: 'unwatch', game: this.id });
  }

  build() {
    this.root.replaceChildren();
    const e = {
      status: h('div', { class: 'status', role: 'status', 'aria-live': 'polite' }),
      top: h('div', { class: 'player top' }),
      bottom: h('div', { class: 'player bottom' }),
      boardHost: h('div', { class: 'board-host' }),
      moves: h('ol', { class: 'moves', 'aria-label': 'Moves' }),
      controls: h('div', { class: 'controls' }),
      offers: h('div', { class: 'offers' }),
      spect: h('div', { class: 'spectate', hidden: '' }),
      end: h('div', { class: 'end', hidden: '' }),
      entry: /** @type {HTMLInputElement} */ (h('input', { id: 'move-entry', 'aria-label': 'Type a move by coordinates, for example h2e2', placeholder: 'type a move: h2e2', autocomplete: 'off' })),
      entryError: h('span', { class: 'entry-error', role: 'alert' }),
      announce: h('div', { class: 'sr-only', 'aria-live': 'assertive' }),
      replay: h('div', { class: 'replay' }),
      info: h('div', { class: 'info' }),
    };
    const form = h('form', { class: 'entry' }, e.entry, h('button', { type: 'submit' }, 'Play'), e.entryError);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      e.entryError.textContent = this.board?.typed(e.entry.value) ?? '';
      if (!e.entryError.textContent) e.entry.value = '';
    });
    this.root.append(
      h('section', { class: 'game' },
        h('div', { class: 'board-col' }, e.top, e.boardHost, e.bottom, e.status),
        h('div', { class: 'side-col' }, e.info, e.controls, e.offers, e.spect, e.end, e.replay, e.moves, form),
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
      this.el.entryError.textContent = 'Not connected: the move was not sent.';
      return;
    }
    // Nothing is played locally: the board waits for the server's event.
    s.legal = null;
    this.render();
  }

  /** @param {ServerMsg} m */
  onMessage(m) {
    if (!('game' in m) || m.game !== this.id) {
      if (m.t === 'snapshot' && m.game === this.id) this.onSnapshot(m);
      return;
    }
    switch (m.t) {
      case 'snapshot':
        this.onSnapshot(m);
        break;
      case 'event':
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
      case 'tally':
        this.tally = m.counts;
        this.renderSpectate();
        this.renderBoard();
        break;
      case 'score':
        this.onScore(m);
        break;
      case 'error':
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
    rememberGame(this.snap);
    if (s.result && s.moves.length > 1) void this.fetchPositions();
    this.render();
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
    const played = this.snap?.moves[r.ply]?.display ?? r.played;
    this.revealText = `Move ${r.ply + 1}: played ${played}. ${r.matched} spectator${r.matched === 1 ? '' : 's'} guessed it` +
      (top ? `; the crowd's favourite was ${top.mv} (${top.n}).` : '.');
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
    switch (ev.e) {
      case 'moved': {
        const before = Object.keys(s.position.pieces).length;
        s.moves.push({ mv: ev.mv, display: ev.display, seat: ev.seat });
        s.position = ev.position;
        this.positions[ev.ply + 1] = ev.position;
        this.positions.length = s.moves.length + 1;
        s.clock = ev.clock;
        this.clockAt = performance.now();
        s.legal = legal;
        s.offers = s.offers.filter(([k]) => k === 'rematch');
        const after = Object.keys(ev.position.pieces).length;
        play(ev.position.check ? 'check' : after < before ? 'capture' : 'move');
        this.el.announce.textContent = `${seatName(s, ev.seat)} played ${ev.display}${ev.position.check ? ', check' : ''}.`;
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
      this.el.status.textContent = this.net.status === 'open' ? 'Loading the game…' : 'Connecting…';
      return;
    }
    this.renderBoard();
    this.renderPlayers();
    this.renderClocks();
    this.renderStatus();
    this.renderControls();
    this.renderOffers();
    this.renderMoves();
    this.renderSpectate();
    this.renderEnd();
    this.renderInfo();
  }

  get live() {
    return this.viewPly === null;
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
    const marks = s.you === 'spectator' ? [this.proposal ?? this.tally[0]?.mv].filter((x) => x != null).flatMap((mv) => squaresOf(/** @type {string} */ (mv)).slice(-1)) : [];
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
    });
    this.el.boardHost.classList.toggle('waiting', !canAct);
    this.el.boardHost.classList.toggle('offline', !online);
  }

  renderPlayers() {
    const s = /** @type {Snapshot} */ (this.snap);
    const seatAt = (/** @type {'top'|'bottom'} */ where) => (where === 'bottom') !== this.flipped ? 'first' : 'second';
    for (const where of /** @type {const} */ (['top', 'bottom'])) {
      const seat = seatAt(where);
      const p = s.players[seat === 'first' ? 0 : 1];
      const box = this.el[where];
      box.dataset.seat = seat;
      const pres = this.presence[seat];
      const away = !p.online && !p.ai ? h('span', { class: 'away' }, pres.claimAt ? ' (left: claim possible soon)' : ' (offline)') : '';
      box.replaceChildren(
        h('span', { class: `seat-dot ${seatColour(s, seat) ?? 'unknown'}` }),
        h('span', { class: 'name' }, `${p.name}${p.rating ? ` (${p.rating})` : ''}`),
        h('span', { class: 'seat-name' }, ` · ${seatName(s, seat)}`),
        away,
        h('span', { class: 'clock', 'data-clock': seat }),
      );
    }
  }

  renderClocks() {
    const s = this.snap;
    if (!s) return;
    // The opponent's grace period ran out: offer the claim without waiting for a message.
    const opp = this.presence[s.you === 'first' ? 'second' : 'first'];
    const claimable = (s.you === 'first' || s.you === 'second') && !opp.online && opp.claimAt !== null && performance.now() >= opp.claimAt;
    if (claimable && !s.result && !this.el.controls.querySelector('[data-action="claim"]')) this.renderControls();
    if (s.time_control.initial_ms === 0) {
      for (const c of this.root.querySelectorAll('.clock')) c.textContent = '';
      return;
    }
    for (const c of /** @type {NodeListOf<HTMLElement>} */ (this.root.querySelectorAll('.clock'))) {
      const seat = /** @type {Seat} */ (c.dataset.clock);
      let ms = s.clock.remaining_ms[seat === 'first' ? 0 : 1];
      const running = s.clock.running === seat && !s.result;
      if (running) ms = Math.max(0, ms - (performance.now() - this.clockAt));
      const t = Math.ceil(ms / 1000);
      c.textContent = `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
      c.classList.toggle('running', running);
      c.classList.toggle('low', running && ms < 20000);
    }
  }

  renderStatus() {
    const s = /** @type {Snapshot} */ (this.snap);
    const st = this.el.status;
    st.classList.toggle('reconnecting', this.net.status !== 'open');
    if (this.net.status !== 'open') {
      st.textContent = 'Reconnecting… your game is safe on the server.';
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
    if (you === 'spectator') text = `${mover} to move. Make a move on the board to propose it.`;
    else if (you === 'both' || you === pos.to_move) text = `Your move (${mover})${pos.in_check ? ': check!' : '.'}`;
    else text = `Waiting for ${mover}…`;
    if (!this.live) text = `Viewing move ${this.viewPly} of ${s.moves.length}. ` + text;
    st.textContent = text;
  }

  renderControls() {
    const s = /** @type {Snapshot} */ (this.snap);
    const c = this.el.controls;
    const player = s.you !== 'spectator';
    const over = !!s.result;
    const btn = (/** @type {string} */ label, /** @type {string} */ name, /** @type {() => void} */ f, disabled = false) => {
      const b = h('button', { 'data-action': name, type: 'button' }, label);
      if (disabled) b.setAttribute('disabled', '');
      b.addEventListener('click', f);
      return b;
    };
    const p = prefs();
    const items = [
      btn('Flip board', 'flip', () => {
        this.flipped = !this.flipped;
        this.flipSet = true;
        this.render();
      }),
    ];
    if (s.kind === 'xiangqi' || s.kind === 'banqi')
      items.push(btn(p.pieceSet === 'hanzi' ? 'Latin letters' : 'Chinese characters', 'pieces', () => {
        savePrefs({ ...p, pieceSet: p.pieceSet === 'hanzi' ? 'latin' : 'hanzi' });
        this.render();
      }));
    // Zones exist where the server sends them (Commander Chess).
    if (s.position.air_defence)
      items.push(btn(this.showZones ? 'Hide air defence' : 'Show air defence', 'zones', () => {
        this.showZones = !this.showZones;
        this.render();
      }));
    if (player && !over) {
      items.push(btn('Resign', 'resign', () => {
        if (confirm('Resign this game?')) this.net.send({ t: 'resign', game: this.id });
      }));
      if (s.you !== 'both') {
        items.push(btn('Offer draw', 'draw', () => this.net.send({ t: 'offer', game: this.id, kind: 'draw' })));
        items.push(btn('Ask takeback', 'takeback', () => this.net.send({ t: 'offer', game: this.id, kind: 'takeback' }), s.moves.length === 0 || s.rated));
      }
      if (s.moves.length < 2) items.push(btn('Abort', 'abort', () => this.net.send({ t: 'abort', game: this.id })));
      const opp = s.you === 'first' ? 'second' : 'first';
      const pres = this.presence[opp];
      if (!pres.online && pres.claimAt && performance.now() >= pres.claimAt)
        items.push(btn('Claim the win', 'claim', () => this.net.send({ t: 'claim', game: this.id })));
    }
    if (player && over && s.you !== 'both' && !s.rematch)
      items.push(btn('Rematch', 'rematch', () => this.net.send({ t: 'offer', game: this.id, kind: 'rematch' })));
    if (over && s.rematch) {
      const a = h('a', { href: `#/game/${s.rematch}`, class: 'button' }, 'Go to the rematch');
      items.push(/** @type {HTMLButtonElement} */ (/** @type {unknown} */ (a)));
    }
    items.push(btn('Export', 'export', () => this.exportRecord()));
    const rules = h('a', { href: `rules/${s.kind}.html`, target: '_blank', class: 'button' }, 'Rules');
    c.replaceChildren(...items, rules);
  }

  renderOffers() {
    const s = /** @type {Snapshot} */ (this.snap);
    const box = this.el.offers;
    box.replaceChildren();
    for (const [kind, seat] of s.offers) {
      const mine = s.you === seat || s.you === 'both';
      if (s.you === 'spectator') {
        box.append(h('p', {}, `${seatName(s, seat)} offers a ${kind}.`));
        continue;
      }
      if (mine) {
        box.append(h('p', { 'data-offer': kind }, `You offered a ${kind}; waiting for an answer.`));
        continue;
      }
      const yes = h('button', { 'data-accept': kind, type: 'button' }, 'Accept');
      yes.addEventListener('click', () => this.net.send({ t: 'accept', game: this.id, kind }));
      const no = h('button', { 'data-decline': kind, type: 'button', class: 'secondary' }, 'Decline');
      no.addEventListener('click', () => this.net.send({ t: 'decline', game: this.id, kind }));
      box.append(h('p', { 'data-offer': kind }, `Your opponent offers a ${kind}. `, yes, ' ', no));
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
        const b = h('button', { type: 'button', class: 'mv', 'data-ply': String(j + 1) }, m.display || m.mv);
        if ((this.viewPly ?? s.moves.length) === j + 1) b.classList.add('current');
        b.addEventListener('click', () => this.view(j + 1));
        li.append(b);
      }
      list.append(li);
    }
    const nav = this.el.replay;
    const go = (/** @type {string} */ label, /** @type {string} */ name, /** @type {() => number} */ to) => {
      const b = h('button', { type: 'button', 'data-nav': name, 'aria-label': name }, label);
      b.addEventListener('click', () => this.view(to()));
      return b;
    };
    const cur = () => this.viewPly ?? s.moves.length;
    nav.replaceChildren(
      go('|◀', 'start', () => 0),
      go('◀', 'back', () => cur() - 1),
      go('▶', 'forward', () => cur() + 1),
      go('▶|', 'end', () => s.moves.length),
    );
    const current = list.querySelector('.current');
    if (current && this.live) list.scrollTop = list.scrollHeight;
  }

  /** @param {number} ply */
  async view(ply) {
    const s = this.snap;
    if (!s) return;
    const p = Math.max(0, Math.min(s.moves.length, ply));
    if (!this.positions[p] && !(await this.fetchPositions())) {
      this.el.entryError.textContent = 'The server could not send that position; try again.';
      return;
    }
    if (this.snap !== s || p > s.moves.length) return;
    this.viewPly = p === s.moves.length ? null : p;
    this.render();
  }

  renderSpectate() {
    const s = this.snap;
    const box = this.el.spect;
    // Players never see proposals: the box stays empty and hidden for them.
    if (!s || s.you !== 'spectator') {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    box.hidden = false;
    const items = [h('h3', {}, 'Propose the next move')];
    items.push(h('p', { class: 'my-proposal' }, this.proposal ? `Your proposal: ${this.proposal}` : 'Make a move on the board to propose it.'));
    if (this.tally.length) {
      const total = this.tally.reduce((a, t) => a + t.n, 0);
      items.push(h('ul', { class: 'tally' }, ...this.tally.slice(0, 5).map((t) =>
        h('li', {}, h('span', { class: 'bar', style: `width:${Math.round((100 * t.n) / total)}%` }), `${t.mv} — ${t.n}`))));
    }
    if (this.revealText) items.push(h('p', { class: 'reveal' }, this.revealText));
    if (this.score) items.push(h('p', { class: 'score' }, `Your score: ${this.score.hits} of ${this.score.total}`));
    if (s.crowd) items.push(h('p', { class: 'crowd' }, crowdText(s)));
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
    const items = [h('h3', {}, 'Game over'), h('p', { class: 'result' }, resultText(s))];
    if (s.crowd && (s.crowd.first.of || s.crowd.second.of)) items.push(h('p', { class: 'crowd' }, crowdText(s)));
    if (s.seed) items.push(h('p', { class: 'seed' }, `Deal seed: ${s.seed}` + (s.commitment ? ` (commitment ${s.commitment.slice(0, 16)}…)` : '')));
    box.replaceChildren(...items);
  }

  renderInfo() {
    const s = this.snap;
    if (!s) return;
    const role = s.result ? 'finished' : { first: 'playing', second: 'playing', both: 'hot-seat', spectator: 'watching' }[s.you];
    this.el.info.replaceChildren(
      h('h2', {}, GAME_NAMES[s.kind] ?? s.kind),
      h('p', {}, `${role} · ${s.rated ? 'rated' : 'casual'} · ${s.spectators} watching`),
    );
  }

  exportRecord() {
    const s = this.snap;
    if (!s) return;
    if (s.result) {
      // The server's archive has the full record (with the Banqi seed).
      window.open(`/api/game/${encodeURIComponent(s.game)}/export`, '_blank');
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
    download(`${s.kind}-${s.game}.txt`, lines.join('\n') + body.join('\n') + '\n');
  }
}

/** @param {Snapshot} s */
function crowdText(s) {
  const c = /** @type {import('./types.js').CrowdRecord} */ (s.crowd);
  return `The crowd agreed with ${seatName(s, 'first')} on ${c.first.agreed} of ${c.first.of} moves and with ${seatName(s, 'second')} on ${c.second.agreed} of ${c.second.of}.`;
}
