// The header's "your turn" list: the user's live games where it is their move, read from
// `/api/your-turn` (the session's, so the same on every device the user logs in on), again
// whenever a game starts or moves, and every half minute for games not open here.

import { h, gameName } from './ui.js';
import { t } from './i18n.js';

/** @typedef {{id: string, game: string, opponent: string, moves: number}} YourTurn */

/** How often the list is read while nothing happens here, in ms. */
const POLL_MS = 30000;

/**
 * Keeps `box` showing the list.
 * @param {HTMLElement} box
 * @param {import('./net.js').Net} net
 */
export function yourTurn(box, net) {
  /** @type {ReturnType<typeof setTimeout>|null} */
  let soon = null;
  const draw = (/** @type {YourTurn[]} */ games) => {
    box.hidden = games.length === 0;
    box.replaceChildren(
      h('details', { class: 'your-turn' },
        h('summary', { 'data-count': String(games.length) }, t('turns.count', { n: games.length })),
        h('ul', {}, ...games.map((g) =>
          h('li', {}, h('a', { href: `#/game/${g.id}`, 'data-turn': g.id }, t('turns.game', { game: gameName(g.game), who: g.opponent })))))),
    );
  };
  const load = () => {
    soon = null;
    fetch('/api/your-turn', { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((/** @type {{games: YourTurn[]}} */ body) => draw(body.games))
      .catch(() => draw([]));
  };
  // Moves come in bursts (a move and the clock): one read for them.
  const later = () => {
    if (soon === null) soon = setTimeout(load, 300);
  };
  net.on((m) => {
    if (m.t === 'welcome' || m.t === 'game_started' || (m.t === 'event' && (m.event.e === 'moved' || m.event.e === 'ended' || m.event.e === 'taken_back'))) later();
  });
  setInterval(later, POLL_MS);
  draw([]);
}
