// The lobby (`#/lobby`): a quick-pairing grid of each game's common clocks (one click seeks
// or joins a waiting seek, a second click cancels), a form for any other game (custom
// clock, the game's rule options, rated or casual, a rating range), and the open seeks with
// their seekers' ratings, filtered by game. The server checks every seek and every taker;
// the page hides what it would refuse (seeks for another rating range).

import { h, GAMES, gameName, profileLink, ratingText, speedOf, speedName, clockText } from './ui.js';
import { t } from './i18n.js';

/** @typedef {import('./types.js').GameKind} GameKind */
/** @typedef {import('./types.js').SeekInfo} SeekInfo */
/** @typedef {import('./types.js').TimeControl} TimeControl */
/** @typedef {import('./net.js').Net} Net */

/** The quick-pairing clocks, as lichess's front page offers them: [minutes, increment s]. */
export const QUICK_CLOCKS = /** @type {const} */ ([
  [1, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
]);

/** The server's bounds (lobby.rs): three hours, and one minute of increment. */
const MAX_MINUTES = 180;
const MAX_INCREMENT_S = 60;
/** A correspondence move has 1 to 14 days (lobby.rs). */
const MAX_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Each game's rule options as choices: [option name, [value, catalogue key][]], the first
 * value the standard rule (left out of the options text).
 * @type {Record<string, [string, [string, string][]][]>}
 */
const OPTIONS = {
  xiangqi: [['repetition', [['seed', 'opt.repetition_seed'], ['asian', 'opt.repetition_asian']]]],
  banqi: [
    ['cannon', [['jump', 'opt.cannon_jump'], ['step', 'opt.cannon_step']]],
    ['chain_capture', [['off', 'opt.chain_off'], ['on', 'opt.chain_on']]],
    ['noprog_limit', [['60', 'opt.noprog_standard'], ['icga', 'opt.noprog_icga']]],
  ],
  chessbattle: [],
  commander: [['format', [['standard', 'opt.format_standard'], ['tactical', 'opt.format_tactical'], ['fullforce', 'opt.format_fullforce']]]],
};

/** The catalogue key of each option's label. @type {Record<string, string>} */
const OPTION_LABELS = {
  repetition: 'opt.repetition',
  cannon: 'opt.cannon',
  chain_capture: 'opt.chain_capture',
  noprog_limit: 'opt.noprog_limit',
  format: 'opt.format',
};

/**
 * A seek's options as people read them ("the standard rules" when none).
 * @param {string} game
 * @param {string} options
 */
export function optionsText(game, options) {
  const items = options.split(',').map((i) => i.trim()).filter((i) => i && i !== 'standard');
  if (!items.length) return t('invite.default_options');
  return items.map((item) => {
    const [name, value] = item.split('=');
    const choice = (OPTIONS[game] ?? []).find(([n]) => n === name)?.[1].find(([v]) => v === value);
    return choice ? t(choice[1]) : item;
  }).join(', ');
}

/** @param {TimeControl} a @param {TimeControl} b */
const sameClock = (a, b) => a.initial_ms === b.initial_ms && a.increment_ms === b.increment_ms && (a.days_per_move ?? 0) === (b.days_per_move ?? 0);

/**
 * The viewer's ratings by `game/speed` (an account's, read from its profile), for hiding
 * seeks of another range. An account not yet rated at a speed is 1500 there.
 */
class MyRatings {
  constructor() {
    /** @type {string|null} whose ratings these are */
    this.of = null;
    /** @type {Map<string, number>} */
    this.byKey = new Map();
  }

  /**
   * Reads `name`'s ratings once; `done` runs when they arrive.
   * @param {string} name
   * @param {() => void} done
   */
  load(name, done) {
    if (this.of === name) return;
    this.of = name;
    this.byKey = new Map();
    fetch(`/api/user/${encodeURIComponent(name)}`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((/** @type {{ratings: {game: string, speed: string, rating: number}[]}} */ p) => {
        if (this.of !== name) return;
        for (const r of p.ratings) this.byKey.set(`${r.game}/${r.speed}`, r.rating);
        done();
      })
      .catch(() => {});
  }

  /** @param {string} game @param {TimeControl} clock */
  get(game, clock) {
    const speed = speedOf(clock);
    return speed ? (this.byKey.get(`${game}/${speed}`) ?? 1500) : null;
  }
}

/**
 * The lobby screen.
 * @param {HTMLElement} main
 * @param {Net} net
 * @param {{seeks: SeekInfo[], live: number}} lobby the lobby as the server last sent it
 * @param {Set<string>} mySeeks seeks (and invites) this page made
 * @param {() => string|null} inviteLink the link of the last invite made here
 * @param {(input: HTMLInputElement) => HTMLElement} copyButton
 * @param {(text: string) => void} toast
 */
export function lobbyScreen(main, net, lobby, mySeeks, inviteLink, copyButton, toast) {
  const stop = net.follow(() => [{ t: 'lobby_subscribe' }]);
  const ratings = new MyRatings();
  /** @type {GameKind|''} */
  let filter = /** @type {GameKind|''} */ (localStorage.getItem('cannonade_lobby_game') ?? '');
  if (filter && !GAMES.includes(filter)) filter = '';

  const mine = (/** @type {SeekInfo} */ s) => s.by === net.user?.name || mySeeks.has(s.id);
  /** Whether the viewer may take `s` (its range admits the viewer's rating). @param {SeekInfo} s */
  const takeable = (s) => {
    if (!s.range) return true;
    if (!net.user?.account) return false;
    const r = ratings.get(s.game, s.clock);
    return r !== null && s.range.min <= r && r <= s.range.max;
  };
  const shown = () => lobby.seeks.filter((s) => (!filter || s.game === filter) && (mine(s) || takeable(s)));

  // ---- the quick-pairing grid ----
  const grid = h('table', { class: 'quick', 'aria-label': t('lobby.quick') });
  /** A quick seek is casual for an anonymous player and rated for an account. */
  const quickRated = () => !!net.user?.account;
  /** @param {GameKind} game @param {TimeControl} clock */
  const quickMatch = (game, clock) => (/** @type {SeekInfo} */ s) =>
    s.game === game && sameClock(s.clock, clock) && s.options === '' && s.rated === quickRated();
  /** @param {GameKind} game @param {TimeControl} clock */
  const quickClick = (game, clock) => {
    if (net.status !== 'open') return toast(t('home.not_connected'));
    const match = quickMatch(game, clock);
    const own = lobby.seeks.find((s) => mine(s) && match(s));
    if (own) return net.send({ t: 'cancel_seek', id: own.id });
    const waiting = lobby.seeks.find((s) => !mine(s) && match(s) && takeable(s));
    if (waiting) return net.send({ t: 'accept_seek', id: waiting.id });
    net.send({ t: 'seek', game, options: '', clock, rated: quickRated() });
  };
  const drawGrid = () => {
    const games = filter ? [filter] : GAMES;
    grid.replaceChildren(
      h('caption', {}, t('lobby.quick'), ' ', h('span', { class: 'note' }, t(quickRated() ? 'lobby.quick_rated' : 'lobby.quick_casual'))),
      ...games.map((game) =>
        h('tr', {}, h('th', { scope: 'row' }, gameName(game)),
          ...QUICK_CLOCKS.map(([m, s]) => {
            const clock = { initial_ms: m * 60000, increment_ms: s * 1000 };
            const match = quickMatch(game, clock);
            const seeking = lobby.seeks.some((x) => mine(x) && match(x));
            const waiting = lobby.seeks.filter((x) => !mine(x) && match(x) && takeable(x)).length;
            const speed = speedOf(clock);
            const b = h('button', { type: 'button', 'data-quick': `${game}:${m}+${s}`, class: seeking ? 'seeking' : '', 'aria-pressed': String(seeking) },
              h('strong', {}, `${m}+${s}`),
              h('span', {}, seeking ? t('lobby.quick_cancel') : speed ? speedName(speed) : ''),
              waiting ? h('span', { class: 'waiting' }, t('lobby.quick_waiting', { n: waiting })) : '');
            b.addEventListener('click', () => quickClick(game, clock));
            return h('td', {}, b);
          }))),
    );
  };

  // ---- the custom seek form ----
  const form = customForm(net, toast, () => filter);

  // ---- the game filter and the seek list ----
  const pick = /** @type {HTMLSelectElement} */ (h('select', { id: 'lobby-game', 'aria-label': t('lobby.filter') },
    h('option', { value: '' }, t('lobby.all_games')), ...GAMES.map((g) => h('option', { value: g }, gameName(g)))));
  pick.value = filter;
  pick.addEventListener('change', () => {
    filter = /** @type {GameKind|''} */ (pick.value);
    localStorage.setItem('cannonade_lobby_game', filter);
    form.setGame(filter);
    refresh();
  });
  const inviteBox = h('div', {});
  const list = h('div', {});
  const liveLine = h('p', {});

  /** Seeks of others this page already tried to pair with (each is tried once). */
  const paired = new Set();
  /**
   * Two players who sought the same thing at the same moment (both clicked the same grid
   * cell before either saw the other's seek) would wait side by side: the page whose own seek
   * has the greater id takes the other's seek instead and cancels its own, and the other page
   * waits, so exactly one of them acts.
   */
  const pairSimultaneous = () => {
    for (const own of lobby.seeks.filter(mine)) {
      const twin = lobby.seeks.find((o) => !mine(o) && !paired.has(o.id) && o.id < own.id && o.game === own.game &&
        sameClock(o.clock, own.clock) && o.options === own.options && o.rated === own.rated && takeable(o));
      if (!twin) continue;
      paired.add(twin.id);
      net.send({ t: 'cancel_seek', id: own.id });
      net.send({ t: 'accept_seek', id: twin.id });
      return;
    }
  };

  const refresh = () => {
    if (net.user?.account) ratings.load(net.user.name, refresh);
    pairSimultaneous();
    drawGrid();
    const link = inviteLink();
    if (link) {
      const input = /** @type {HTMLInputElement} */ (h('input', { readonly: '', value: link, id: 'invite-link', 'aria-label': t('lobby.invite_link') }));
      inviteBox.replaceChildren(h('p', { class: 'invite' }, t('lobby.send_link') + ' ', input, ' ', copyButton(input)));
    } else inviteBox.replaceChildren();
    const rows = shown().map((s) => {
      const own = mine(s);
      const b = h('button', { type: 'button', 'data-seek': s.id }, own ? t('lobby.cancel') : t('lobby.play'));
      b.addEventListener('click', () => net.send(own ? { t: 'cancel_seek', id: s.id } : { t: 'accept_seek', id: s.id }));
      const rating = s.rating != null ? h('span', { class: 'rating', 'data-rating': ratingText({ rating: s.rating, provisional: !!s.provisional }) }, ratingText({ rating: s.rating, provisional: !!s.provisional })) : '';
      const range = s.range ? h('span', { class: 'range' }, t('lobby.range_shown', { min: s.range.min, max: s.range.max })) : '';
      return h('li', { class: own ? 'mine' : '', 'data-game': s.game },
        `${gameName(s.game)} · `, profileLink(s.by), ' ', rating,
        ` · ${clockText(s.clock)} · ${optionsText(s.game, s.options)} · ${t(s.rated ? 'game.rated' : 'game.casual')} `, range, ' ', b);
    });
    list.replaceChildren(rows.length ? h('ul', { class: 'seeks' }, ...rows) : h('p', {}, t('lobby.no_seeks')));
    liveLine.replaceChildren(t('lobby.live', { n: lobby.live }) + ' — ', h('a', { href: '#/live' }, t('lobby.watch')));
  };

  main.replaceChildren(h('section', { class: 'lobby' },
    h('h2', {}, t('nav.lobby')), inviteBox,
    h('div', { class: 'row' }, h('label', { for: 'lobby-game' }, t('lobby.filter') + ' '), pick),
    grid,
    h('h3', {}, t('lobby.open_seeks')), list, liveLine,
    form.box));
  refresh();
  return {
    refresh,
    destroy() {
      stop();
      net.send({ t: 'lobby_unsubscribe' });
    },
  };
}

/**
 * The form for a seek or an invite of any game, clock, options, mode and range.
 * @param {Net} net
 * @param {(text: string) => void} toast
 * @param {() => GameKind|''} filter the lobby's game filter, the form's first game
 */
function customForm(net, toast, filter) {
  const game = /** @type {HTMLSelectElement} */ (h('select', { id: 'seek-game', 'aria-label': t('home.game') }, ...GAMES.map((g) => h('option', { value: g }, gameName(g)))));
  game.value = filter() || 'xiangqi';
  const minutes = /** @type {HTMLInputElement} */ (h('input', { type: 'number', id: 'seek-minutes', min: '0', max: String(MAX_MINUTES), step: '1', value: '10' }));
  const increment = /** @type {HTMLInputElement} */ (h('input', { type: 'number', id: 'seek-increment', min: '0', max: String(MAX_INCREMENT_S), step: '1', value: '5' }));
  const days = /** @type {HTMLInputElement} */ (h('input', { type: 'number', id: 'seek-days', min: '1', max: String(MAX_DAYS), step: '1', value: '3' }));
  const kind = /** @type {HTMLSelectElement} */ (h('select', { id: 'seek-clock-kind', 'aria-label': t('lobby.clock_kind') },
    h('option', { value: 'minutes' }, t('lobby.kind_minutes')), h('option', { value: 'days' }, t('lobby.kind_days'))));
  const minutesRow = h('div', { class: 'row' },
    h('label', { for: 'seek-minutes' }, t('lobby.minutes') + ' '), minutes, ' ',
    h('label', { for: 'seek-increment' }, t('lobby.increment') + ' '), increment);
  const daysRow = h('div', { class: 'row' }, h('label', { for: 'seek-days' }, t('lobby.days') + ' '), days);
  const drawKind = () => {
    minutesRow.hidden = kind.value === 'days';
    daysRow.hidden = kind.value !== 'days';
  };
  kind.addEventListener('change', drawKind);
  drawKind();
  const rated = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'seek-rated' }));
  const range = /** @type {HTMLSelectElement} */ (h('select', { id: 'seek-range', 'aria-label': t('lobby.range') },
    h('option', { value: '' }, t('lobby.range_any')), ...[100, 200, 300, 500].map((n) => h('option', { value: String(n) }, t('lobby.range_around', { n })))));
  const options = h('div', { class: 'seek-options' });
  /** @type {HTMLSelectElement[]} */
  let choices = [];
  const drawOptions = () => {
    choices = (OPTIONS[game.value] ?? []).map(([name, values]) => {
      const s = /** @type {HTMLSelectElement} */ (h('select', { id: `seek-opt-${name}`, 'data-option': name, 'aria-label': t(OPTION_LABELS[name] ?? name) },
        ...values.map(([v, key]) => h('option', { value: v }, t(key)))));
      return s;
    });
    options.replaceChildren(...choices.map((s) => h('label', {}, t(OPTION_LABELS[s.dataset.option ?? ''] ?? '') + ' ', s)));
  };
  game.addEventListener('change', drawOptions);
  drawOptions();
  /** The options text: the items off their standard (first) value. */
  const optionsText = () => choices
    .filter((s) => s.selectedIndex > 0)
    .map((s) => `${s.dataset.option}=${s.value}`)
    .join(',');
  /** The clock, or `null` (said) when out of the server's bounds. */
  const clock = () => {
    if (kind.value === 'days') {
      const d = Number(days.value);
      if (!Number.isInteger(d) || d < 1 || d > MAX_DAYS) {
        toast(t('lobby.days_bounds', { n: MAX_DAYS }));
        return null;
      }
      // As the server wants it: the days in ms as the initial time, no increment.
      return { initial_ms: d * DAY_MS, increment_ms: 0, days_per_move: d };
    }
    const m = Number(minutes.value);
    const s = Number(increment.value);
    if (!Number.isInteger(m) || !Number.isInteger(s) || m < 0 || m > MAX_MINUTES || s < 0 || s > MAX_INCREMENT_S || (m === 0 && s > 0)) {
      toast(t('lobby.clock_bounds', { m: MAX_MINUTES, s: MAX_INCREMENT_S }));
      return null;
    }
    return { initial_ms: m * 60000, increment_ms: s * 1000 };
  };
  /** @param {'seek'|'invite'} kind */
  const send = (kind) => {
    if (net.status !== 'open') return toast(t('home.not_connected'));
    const c = clock();
    if (!c) return;
    /** @type {Record<string, unknown> & {t: string}} */
    const msg = { t: kind, game: game.value, options: optionsText(), clock: c, rated: rated.checked };
    if (range.value) msg.range = { around: Number(range.value) };
    net.send(msg);
  };
  const seekBtn = h('button', { type: 'button', 'data-mode': 'custom-seek' }, t('home.seek'));
  seekBtn.addEventListener('click', () => send('seek'));
  const inviteBtn = h('button', { type: 'button', 'data-mode': 'custom-invite', class: 'secondary' }, t('home.invite'));
  inviteBtn.addEventListener('click', () => send('invite'));
  const box = h('section', { class: 'custom-seek' },
    h('h3', {}, t('lobby.custom')),
    h('div', { class: 'row' }, h('label', { for: 'seek-game' }, t('home.game') + ' '), game),
    options,
    h('div', { class: 'row' }, h('label', { for: 'seek-clock-kind' }, t('lobby.clock_kind') + ' '), kind),
    minutesRow, daysRow,
    h('div', { class: 'row' },
      h('label', { class: 'rated', title: t('home.rated_note') }, rated, ' ' + t('home.rated')), ' ',
      h('label', { for: 'seek-range' }, t('lobby.range') + ' '), range),
    h('div', { class: 'row' }, seekBtn, ' ', inviteBtn));
  return {
    box,
    /** @param {GameKind|''} g */
    setGame(g) {
      if (!g) return;
      game.value = g;
      drawOptions();
    },
  };
}
