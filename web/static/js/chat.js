// A game's chat beside the board: the lines the server sends this page (a player gets the
// players' room only, a spectator both rooms, marked), a line to write (players write in
// the players' room, spectators in theirs: the server decides), a per-user mute kept in
// this browser, and the server's refusals (too fast, a line it will not take) said in the
// panel. Lines are text nodes only: what people write never becomes markup.

import { h } from './ui.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').ChatLine} ChatLine */
/** @typedef {import('./types.js').Role} Role */
/** @typedef {import('./net.js').Net} Net */

/** Where the muted names are kept (a JSON list), for every game. */
const MUTED_KEY = 'cannonade_chat_muted';
/** The server's limit of a line, in characters. */
const MAX_CHARS = 280;
/** Lines kept on the page (the server sends at most its last ones to a late joiner). */
const KEPT = 200;
/** How long after a line is sent a refusal is taken as the line's (ms). */
const REFUSAL_WINDOW_MS = 3000;

/** The names this browser muted. @returns {Set<string>} */
export function mutedNames() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) ?? '[]');
    return new Set(Array.isArray(list) ? list.filter((x) => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

/** @param {Set<string>} names */
function saveMuted(names) {
  localStorage.setItem(MUTED_KEY, JSON.stringify([...names]));
}

export class ChatPanel {
  /**
   * @param {Net} net
   * @param {string} game
   */
  constructor(net, game) {
    this.net = net;
    this.game = game;
    /** @type {ChatLine[]} */
    this.lines = [];
    /** @type {Role|null} */
    this.you = null;
    /** when this page last sent a line (performance.now()), for its refusal */
    this.sentAt = -Infinity;
    this.list = h('ul', { class: 'chat-lines', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    this.note = h('p', { class: 'chat-note', role: 'alert' });
    this.mutedBox = h('p', { class: 'chat-muted' });
    this.input = /** @type {HTMLInputElement} */ (h('input', { id: 'chat-input', 'aria-label': t('chat.label'), maxlength: String(MAX_CHARS), autocomplete: 'off', enterkeyhint: 'send' }));
    this.heading = h('h3', {}, t('chat.title'));
    this.hint = h('p', { class: 'note chat-hint' });
    const form = h('form', { class: 'chat-form' }, this.input, h('button', { type: 'submit' }, t('chat.send')));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.el = h('section', { class: 'chat', 'aria-label': t('chat.title') }, this.heading, this.hint, this.list, form, this.note, this.mutedBox);
  }

  send() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.net.send({ t: 'chat', game: this.game, text })) {
      this.note.textContent = t('chat.not_sent');
      return;
    }
    // The line shows when the server sends it back (once stored), as everyone sees it.
    this.sentAt = performance.now();
    this.note.textContent = '';
    this.input.value = '';
  }

  /**
   * The game's lines as a snapshot has them (this page's role decides its rooms).
   * @param {ChatLine[]} lines
   * @param {Role} you
   * @param {boolean} opponentIsEngine whether a player's opponent is the engine
   */
  reset(lines, you, opponentIsEngine) {
    this.you = you;
    // Nobody to talk to: one person at the board (hot seat), or a player against the engine
    // (whose spectators still chat).
    this.el.hidden = you === 'both' || (you !== 'spectator' && opponentIsEngine);
    this.lines = lines.slice(-KEPT);
    this.input.placeholder = t(you === 'spectator' ? 'chat.placeholder_spectator' : 'chat.placeholder_player');
    this.hint.textContent = you === 'spectator' ? t('chat.spectator_hint') : '';
    this.render();
  }

  /** @param {ChatLine} line */
  add(line) {
    this.lines.push({ room: line.room, from: line.from, text: line.text });
    if (this.lines.length > KEPT) this.lines.shift();
    this.render();
  }

  /**
   * An error for this page: said in the panel when it is a refusal of the line just sent
   * (the socket's flood limit carries no game, so it is told by its timing).
   * @param {string} code
   * @returns {boolean} whether it was the chat's
   */
  refused(code) {
    if (!this.claims(code)) return false;
    this.note.textContent = t(code === 'rate_limited' ? 'chat.flood' : 'chat.invalid');
    return true;
  }

  /**
   * Whether an error of `code` is taken as the refusal of the line just sent (the page's
   * toast leaves it to the panel).
   * @param {string} code
   */
  claims(code) {
    return performance.now() - this.sentAt <= REFUSAL_WINDOW_MS && ['rate_limited', 'invalid', 'too_large'].includes(code);
  }

  /** @param {string} name @param {boolean} mute */
  mute(name, mute) {
    const names = mutedNames();
    if (mute) names.add(name);
    else names.delete(name);
    saveMuted(names);
    this.render();
  }

  render() {
    const muted = mutedNames();
    const me = this.net.user?.name;
    const shown = this.lines.filter((l) => !muted.has(l.from));
    const rows = shown.map((l) => {
      const items = [];
      // First, as it floats right of the line's first row.
      if (l.from !== me) {
        const b = h('button', { type: 'button', class: 'mute', 'data-mute': l.from, title: t('chat.mute_label', { name: l.from }), 'aria-label': t('chat.mute_label', { name: l.from }) }, t('chat.mute'));
        b.addEventListener('click', () => this.mute(l.from, true));
        items.push(b);
      }
      // A spectator reads both rooms: each line says which.
      if (this.you === 'spectator') items.push(h('span', { class: 'room' }, t(l.room === 'players' ? 'chat.room_players' : 'chat.room_spectators')));
      items.push(h('span', { class: 'from' }, l.from), h('span', { class: 'text' }, l.text));
      return h('li', { 'data-room': l.room, 'data-from': l.from }, ...items);
    });
    this.list.replaceChildren(...(rows.length ? rows : [h('li', { class: 'empty' }, t('chat.empty'))]));
    this.list.scrollTop = this.list.scrollHeight;
    // Muted people stay listed (those of this game's lines) with a way back.
    const here = [...new Set(this.lines.map((l) => l.from))].filter((n) => muted.has(n));
    this.mutedBox.replaceChildren(...(here.length ? [t('chat.muted') + ' ', ...here.map((n) => {
      const b = h('button', { type: 'button', class: 'secondary unmute', 'data-unmute': n }, t('chat.unmute', { name: n }));
      b.addEventListener('click', () => this.mute(n, false));
      return b;
    })] : []));
  }
}
