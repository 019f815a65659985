// Correspondence play against the real `cannonade serve`: two accounts start a game of
// three days per move from the lobby form (the seek list says "3 days"), a move is played,
// the server is restarted on the same database, and the player to move finds the game in
// the header's "your turn" list with its count, opens it on a new device (a fresh browser
// context, logged in) and plays on, the days still running.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot, pageUser, registerIn, clickMove } from './lib.mjs';

const { server, skip, newPage, restart } = await realSite();

/** The game's snapshot as the page holds it. @param {import('playwright-core').Page} page */
const snap = (page) => page.evaluate(() => {
  const s = window.cannonade.game.snap;
  return { game: s.game, you: s.you, tc: s.time_control, clock: s.clock, moves: s.moves.length, legal: s.legal, result: s.result };
});

/** Logs `name` in through the account panel. @param {import('playwright-core').Page} page @param {string} name */
async function login(page, name) {
  await page.goto(server.url + '/');
  await pageUser(page);
  await page.locator('#account-btn').click();
  await page.fill('#account-name', name);
  await page.fill('#account-password', 'correct horse');
  await page.locator('#account-form button[type="submit"]').click();
  await page.locator('#account-btn', { hasText: new RegExp(`^${name}$`) }).waitFor();
}

test('correspondence: a game of days per move from the lobby survives a restart and shows in "your turn"', { skip: skip(), timeout: 180000 }, async () => {
  const ana = await newPage();
  const ben = await newPage();
  await registerIn(ana, server.url, 'corr_ana');
  await registerIn(ben, server.url, 'corr_ben');

  // Ana seeks a rated game of three days per move with the lobby form.
  await ana.goto(server.url + '/#/lobby');
  await pageUser(ana);
  await ana.selectOption('#seek-game', 'xiangqi');
  await ana.selectOption('#seek-clock-kind', 'days');
  assert.equal(await ana.locator('#seek-minutes').isVisible(), false, 'the minutes give way to the days');
  await ana.fill('#seek-days', '15');
  await ana.locator('[data-mode="custom-seek"]').click();
  await ana.locator('.toast', { hasText: '14 days' }).waitFor();
  await ana.fill('#seek-days', '3');
  await ana.check('#seek-rated');
  await shot(ana, 'correspondence-form-en');
  await ana.locator('[data-mode="custom-seek"]').click();
  await ana.locator('.seeks li.mine[data-game="xiangqi"]').waitFor();

  // Ben sees "3 days" in the list and takes it.
  await ben.goto(server.url + '/#/lobby');
  await pageUser(ben);
  const row = ben.locator('.seeks li[data-game="xiangqi"]');
  await row.waitFor();
  assert.match(await row.textContent(), /3 days/);
  await shot(ben, 'correspondence-seek-list-en');
  await row.locator('button[data-seek]').click();
  for (const p of [ana, ben]) await p.waitForFunction(() => !!window.cannonade.game?.snap);
  const [a, b] = [await snap(ana), await snap(ben)];
  assert.equal(a.game, b.game);
  const game = a.game;
  assert.deepEqual(a.tc, { initial_ms: 3 * 86400000, increment_ms: 0, days_per_move: 3 });
  const [first, second] = a.you === 'first' ? [ana, ben] : [ben, ana];
  const secondName = second === ana ? 'corr_ana' : 'corr_ben';
  // The clock reads in days.
  await first.locator('.clock', { hasText: '3 d 0 h' }).first().waitFor();

  // The first seat moves; then the server goes down and comes back on the same database.
  const f = await snap(first);
  await clickMove(first, f.legal[0]);
  await second.waitForFunction(() => window.cannonade.game.snap.moves.length === 1);
  await restart();

  // The second seat, on a new device, logs in: the header counts the game in "your turn".
  const device = await newPage();
  await login(device, secondName);
  const turn = device.locator(`#your-turn:not([hidden]) a[data-turn="${game}"]`);
  await device.locator('#your-turn:not([hidden])').waitFor();
  assert.equal(await device.locator('#your-turn summary').textContent(), 'Your turn: 1');
  await device.locator('#your-turn summary').click();
  await shot(device, 'correspondence-your-turn-en');
  await turn.click();
  await device.waitForFunction((id) => window.cannonade.game?.snap?.game === id && window.cannonade.game.snap.moves.length === 1, game);
  const s = await snap(device);
  assert.equal(s.result, null);
  assert.equal(s.clock.running, s.you);
  const left = s.clock.remaining_ms[s.you === 'first' ? 0 : 1];
  assert.ok(left <= 3 * 86400000 && left > 3 * 86400000 - 5 * 60000, `${left}`);
  await device.locator('.clock', { hasText: '2 d 23 h' }).first().waitFor();
  await shot(device, 'correspondence-resumed-en');
  // Play goes on from the new device; the first seat's page, reconnected, sees the move.
  await clickMove(device, s.legal[0]);
  await first.waitForFunction(() => window.cannonade.game?.snap?.moves.length === 2, undefined, { timeout: 30000 });
  await device.locator('#your-turn').waitFor({ state: 'hidden' });

  // The same in Vietnamese, for people to look at.
  // Choosing a language reloads the page.
  await Promise.all([device.waitForEvent('load'), device.selectOption('#lang', 'vi')]);
  await device.goto(server.url + '/#/lobby');
  await device.waitForFunction(() => document.documentElement.lang === 'vi');
  await pageUser(device);
  await device.selectOption('#seek-clock-kind', 'days');
  await shot(device, 'correspondence-form-vi');
  await device.goto(server.url + '/#/game/' + game);
  await device.locator('.clock', { hasText: 'ngày' }).first().waitFor();
  await shot(device, 'correspondence-game-vi');
});
