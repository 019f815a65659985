// The lobby in the page, against the real `cannonade serve`: the quick-pairing grid seeks
// with one click and cancels with a second, another player's click on the same clock joins
// the waiting seek and both pages enter the game; the list shows the seeker's rating and is
// filtered by game; the header lists the game for the player to move; the custom form makes a seek with its own clock, the game's options and
// a rating range, which an anonymous player is not shown.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot, pageUser, registerIn } from './lib.mjs';

const { server, skip, newPage } = await realSite();

const user = pageUser;
/** Registers `name`. @param {import('playwright-core').Page} page @param {string} name */
const register = (page, name) => registerIn(page, server.url, name);

/** Opens the lobby. */
async function lobby(page) {
  await page.goto(server.url + '/#/lobby');
  await user(page);
  await page.locator('table.quick').waitFor();
}

test('lobby: the quick grid pairs two players; ratings, the game filter and a ranged custom seek', { skip: skip(), timeout: 120000 }, async () => {
  const ana = await newPage();
  const ben = await newPage();
  const cat = await newPage();
  await register(ana, 'ana');
  await register(ben, 'ben');
  await lobby(ana);
  const cell = '[data-quick="xiangqi:3+2"]';
  // One click seeks, a second cancels, a third seeks again.
  await ana.locator(cell).click();
  await ana.locator(`${cell}[aria-pressed="true"]`).waitFor();
  await ana.locator('.seeks li.mine[data-game="xiangqi"]').waitFor();
  await ana.locator(cell).click();
  await ana.locator(`${cell}[aria-pressed="false"]`).waitFor();
  await ana.locator('.seeks li').waitFor({ state: 'detached' });
  await ana.locator(cell).click();
  await ana.locator(`${cell}[aria-pressed="true"]`).waitFor();
  await shot(ana, 'lobby-quick-seeking');

  // Ben sees it waiting, with Ana's provisional rating; filtering by another game hides it.
  await lobby(ben);
  await ben.locator(`${cell} .waiting`).waitFor();
  const row = ben.locator('.seeks li[data-game="xiangqi"]');
  await row.waitFor();
  assert.equal(await row.locator('.rating').textContent(), '1500?');
  assert.match(await row.textContent(), /ana/);
  await ben.selectOption('#lobby-game', 'banqi');
  await row.waitFor({ state: 'detached' });
  assert.equal(await ben.locator('[data-quick^="xiangqi:"]').count(), 0, 'the grid shows the chosen game only');
  assert.equal(await ben.locator('[data-quick^="banqi:"]').count(), 6);
  await ben.selectOption('#lobby-game', '');
  await row.waitFor();
  assert.equal(await ben.locator('[data-quick]').count(), 24, 'four games × six clocks');

  // Ben's click on the same clock joins Ana's seek: both are in one rated 3+2 game.
  await ben.locator(cell).click();
  for (const p of [ana, ben]) await p.waitForFunction(() => !!window.cannonade.game?.snap);
  const [a, b] = await Promise.all([ana, ben].map((p) => p.evaluate(() => {
    const s = window.cannonade.game.snap;
    return { game: s.game, rated: s.rated, tc: s.time_control };
  })));
  assert.equal(a.game, b.game);
  assert.equal(a.rated, true, 'an account’s quick seek is rated');
  assert.deepEqual(a.tc, { initial_ms: 180000, increment_ms: 2000 });
  // The header's "your turn" list: the game, on the page of the player to move only.
  await Promise.race([ana, ben].map((p) => p.locator(`#your-turn:not([hidden]) a[data-turn="${a.game}"]`).waitFor({ state: 'attached' })));
  const shown = await Promise.all([ana, ben].map((p) => p.locator('#your-turn:not([hidden])').count()));
  assert.deepEqual([...shown].sort(), [0, 1], 'one player has the move');
  const mover = shown[0] ? ana : ben;
  assert.equal(await mover.locator('#your-turn summary').textContent(), 'Your turn: 1');

  // The custom form: Commander's tactical format, 7 + 4, for players within ±100.
  await lobby(ana);
  await ana.selectOption('#seek-game', 'commander');
  await ana.selectOption('#seek-opt-format', 'tactical');
  await ana.fill('#seek-minutes', '7');
  await ana.fill('#seek-increment', '4');
  await ana.selectOption('#seek-range', '100');
  await shot(ana, 'lobby-custom-form');
  await ana.locator('[data-mode="custom-seek"]').click();
  await ana.locator('.seeks li.mine[data-game="commander"]').waitFor();
  await lobby(ben);
  const custom = ben.locator('.seeks li[data-game="commander"]');
  await custom.waitFor();
  const text = await custom.textContent();
  assert.match(text, /7 min \+ 4 s/);
  assert.match(text, /tactical/);
  assert.match(text, /1400–1600/, text);
  await shot(ben, 'lobby-list');
  // An anonymous player is not shown a ranged seek (and the server would refuse it).
  await lobby(cat);
  await cat.locator('[data-quick="commander:3+2"]').waitFor();
  await cat.waitForTimeout(2500);
  assert.equal(await cat.locator('.seeks li[data-game="commander"]').count(), 0);
  // Out-of-bounds clocks are said, not sent.
  await ana.fill('#seek-minutes', '181');
  await ana.locator('[data-mode="custom-seek"]').click();
  await ana.locator('.toast', { hasText: '180 minutes' }).waitFor();
});

test('lobby: two players who sought the same clock at the same moment are paired, not left waiting side by side', { skip: skip(), timeout: 120000 }, async () => {
  const dan = await newPage();
  const eve = await newPage();
  await lobby(dan);
  const cell = '[data-quick="banqi:5+3"]';
  await dan.locator(cell).click();
  await dan.locator(`${cell}[aria-pressed="true"]`).waitFor();
  // Eve seeks the same without taking Dan's seek (as a click crossing his on the wire). Her
  // page is on the lobby first: sent after the seek, a navigation there could land after the
  // game started and take her page away from it.
  await lobby(eve);
  await eve.evaluate(() => window.cannonade.net.send({ t: 'seek', game: 'banqi', options: '', clock: { initial_ms: 300000, increment_ms: 3000 }, rated: false }));
  for (const p of [dan, eve]) await p.waitForFunction(() => !!window.cannonade.game?.snap, null, { timeout: 15000 });
  const [a, b] = await Promise.all([dan, eve].map((p) => p.evaluate(() => window.cannonade.game.snap.game)));
  assert.equal(a, b, 'one game for both');
  // Neither seek is left open.
  const fay = await newPage();
  await lobby(fay);
  await fay.waitForTimeout(2500);
  assert.equal(await fay.locator('.seeks li[data-game="banqi"]').count(), 0);
});
