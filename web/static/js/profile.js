// A player's profile (`/@/{name}`) and the leaderboards (`#/leaderboard`), read from
// `/api/user/{name}` and `/api/leaderboard/{game}`. Names and all text from the server are
// inserted as text.

import { h, GAMES, gameName, profileLink, ratingText, SPEEDS, speedName } from './ui.js';
import { t, lang } from './i18n.js';

/**
 * @typedef {{game: string, speed: string, rating: number, rd: number, provisional: boolean, games: number}} RatingInfo
 * @typedef {{id: string, game: string, opponent: string, result: 'win'|'draw'|'loss'|null, rated: boolean, speed: string|null, created_ms: number}} RecentGame
 * @typedef {{name: string, account: boolean, created_ms: number, ratings: RatingInfo[], records: Record<string, {win: number, draw: number, loss: number}>, games: RecentGame[]}} Profile
 */

/** @param {string} url */
async function getJson(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(String(r.status));
  return r.json();
}

/** @param {RecentGame['result']} r */
function resultWord(r) {
  return r === 'win' ? t('profile.win') : r === 'loss' ? t('profile.loss') : r === 'draw' ? t('profile.draw') : t('past.in_progress');
}

/**
 * The profile screen of `name`.
 * @param {HTMLElement} main
 * @param {string} name
 */
export function profileScreen(main, name) {
  const box = h('section', { class: 'profile' }, h('h2', {}, name), h('p', {}, t('past.loading')));
  main.replaceChildren(box);
  let gone = false;
  getJson(`/api/user/${encodeURIComponent(name)}`)
    .then((/** @type {Profile} */ p) => {
      if (gone) return;
      const ratings = p.ratings.length
        ? h('table', { class: 'ratings' },
          h('thead', {}, h('tr', {}, h('th', {}, t('profile.game')), h('th', {}, t('profile.speed')), h('th', {}, t('profile.rating')), h('th', {}, t('profile.rd')), h('th', {}, t('profile.games')))),
          h('tbody', {}, ...p.ratings.map((r) =>
            h('tr', { 'data-rating': `${r.game}/${r.speed}` },
              h('td', {}, gameName(r.game)), h('td', {}, speedName(r.speed)),
              h('td', { class: 'num', title: r.provisional ? t('profile.provisional') : '' }, ratingText(r)),
              h('td', { class: 'num' }, `±${r.rd}`), h('td', { class: 'num' }, String(r.games))))))
        : h('p', { class: 'note' }, t('profile.unrated'));
      const records = Object.entries(p.records);
      const wdl = records.length
        ? h('ul', { class: 'records' }, ...records.map(([g, r]) =>
          h('li', { 'data-record': g }, `${gameName(g)}: ${t('profile.wdl', { w: r.win, d: r.draw, l: r.loss })}`)))
        : '';
      const games = p.games.length
        ? h('ul', { class: 'games' }, ...p.games.map((g) =>
          h('li', { 'data-game-id': g.id },
            h('a', { href: `/#/game/${encodeURIComponent(g.id)}` }, gameName(g.game)), ' · ',
            t('profile.versus') + ' ', profileLink(g.opponent), ' · ',
            h('span', { class: `result ${g.result ?? ''}` }, resultWord(g.result)),
            ` · ${t(g.rated ? 'game.rated' : 'game.casual')}${g.speed ? ` · ${speedName(g.speed)}` : ''} · ${new Date(g.created_ms).toLocaleDateString(lang())}`)))
        : h('p', {}, t('past.none'));
      box.replaceChildren(
        h('h2', {}, p.name),
        h('p', { class: 'note' }, t(p.account ? 'profile.member_since' : 'profile.anonymous', { date: new Date(p.created_ms).toLocaleDateString(lang()) })),
        h('h3', {}, t('profile.ratings')), ratings, wdl,
        h('h3', {}, t('profile.recent')), games,
        h('p', {}, h('a', { href: '/#/leaderboard' }, t('nav.leaderboard'))),
      );
    })
    .catch((/** @type {Error} */ e) => {
      if (gone) return;
      box.replaceChildren(h('h2', {}, name), h('p', { class: 'note' }, e.message === '404' ? t('profile.none') : t('profile.failed')));
    });
  return { destroy() { gone = true; } };
}

/**
 * The leaderboard screen: one game and speed at a time, picked by buttons.
 * @param {HTMLElement} main
 */
export function leaderboardScreen(main) {
  let game = /** @type {string} */ (localStorage.getItem('cannonade_game') ?? 'xiangqi');
  if (!GAMES.includes(/** @type {any} */ (game))) game = 'xiangqi';
  let speed = 'blitz';
  const box = h('section', { class: 'leaderboard' });
  main.replaceChildren(box);
  let gone = false;
  let asked = 0;
  const pick = (/** @type {string} */ label, /** @type {readonly string[]} */ values, /** @type {string} */ now, /** @type {(v: string) => string} */ name, /** @type {(v: string) => void} */ f) =>
    h('div', { class: 'pick', role: 'group', 'aria-label': label }, ...values.map((v) => {
      const b = h('button', { type: 'button', class: v === now ? 'chosen' : 'secondary', 'aria-pressed': String(v === now), 'data-pick': v }, name(v));
      b.addEventListener('click', () => f(v));
      return b;
    }));
  const draw = () => {
    const n = ++asked;
    const head = [
      h('h2', {}, t('leaders.title')),
      pick(t('home.game'), GAMES, game, gameName, (v) => { game = v; draw(); }),
      pick(t('profile.speed'), SPEEDS, speed, speedName, (v) => { speed = v; draw(); }),
    ];
    box.replaceChildren(...head, h('p', {}, t('past.loading')));
    getJson(`/api/leaderboard/${encodeURIComponent(game)}?speed=${encodeURIComponent(speed)}`)
      .then((/** @type {{players: ({name: string} & RatingInfo)[]}} */ b) => {
        if (gone || n !== asked) return;
        box.replaceChildren(...head, b.players.length
          ? h('ol', { class: 'board', 'data-board': `${game}/${speed}` }, ...b.players.map((p, i) =>
            // The rank is written out: a flex row loses the list's own numbers.
            h('li', {}, h('span', { class: 'rank' }, `${i + 1}.`), profileLink(p.name), h('span', { class: 'num' }, ratingText(p)))))
          : h('p', { class: 'note' }, t('leaders.empty')));
      })
      .catch(() => {
        if (!gone && n === asked) box.replaceChildren(...head, h('p', { class: 'note' }, t('profile.failed')));
      });
  };
  draw();
  return { destroy() { gone = true; } };
}
