// Profiles, ratings and invites in the page, against the real `cannonade serve`: two new
// players register, one invites the other to a rated blitz game (the invite page says what it
// invites to), the game ends by resignation, both pages show the rating changes, and both
// profiles show the new provisional blitz rating and the game; the leaderboard has no
// provisional player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot, pageUser, registerIn } from './lib.mjs';

const { server, skip, newPage } = await realSite();

const user = pageUser;
/** Registers `name`. @param {import('playwright-core').Page} page @param {string} name */
const register = (page, name) => registerIn(page, server.url, name);

test('profiles: a rated game between new players moves both ratings, shown at the end and on both profiles', { skip: skip(), timeout: 120000 }, async () => {
  const alice = await newPage();
  const bob = await newPage();
  await register(alice, 'pia');
  await register(bob, 'quinn');
  // Pia invites to a rated 3+2 game (blitz: 3 min + 40 × 2 s).
  await alice.goto(server.url + '/');
  await user(alice);
  await alice.locator('.game-pick [data-game="xiangqi"]').click();
  await alice.selectOption('#clock', '1');
  await alice.locator('#rated').check();
  await alice.locator('[data-mode="invite"]').click();
  const link = await alice.locator('#invite-link').inputValue();
  await alice.locator('.invite [data-action="copy"]').waitFor();
  // The invite page says what it invites to before Quinn accepts.
  await bob.goto(link);
  await user(bob);
  await bob.locator('[data-detail="by"] a[data-profile="pia"]').waitFor();
  assert.equal(await bob.locator('[data-detail="game"]').textContent(), 'Xiangqi');
  assert.match(await bob.locator('[data-detail="clock"]').textContent(), /3.*2/);
  assert.equal(await bob.locator('[data-detail="rated"]').textContent(), 'rated');
  assert.equal(await bob.locator('[data-detail="options"]').textContent(), 'the standard rules');
  await shot(bob, 'invite-details');
  await bob.locator('[data-mode="accept-invite"]').click();
  for (const p of [alice, bob]) await p.waitForFunction(() => !!window.cannonade.game?.snap);
  const id = await alice.evaluate(() => window.cannonade.game.snap.game);
  assert.equal(await alice.evaluate(() => window.cannonade.game.snap.rated), true);
  // The names in the game view link to the profiles.
  await alice.locator('.name a[data-profile="quinn"]').waitFor();
  // New at Xiangqi blitz: both play as the provisional default, shown as lichess does.
  await alice.locator('.name', { hasText: 'quinn (1500?)' }).waitFor();
  // Pia resigns.
  alice.on('dialog', (d) => d.accept());
  await alice.locator('[data-action="resign"]').click();
  for (const p of [alice, bob]) {
    await p.locator('.rating-changes li').nth(1).waitFor();
    const diffs = await p.locator('.rating-changes [data-diff]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-diff'))));
    const seats = await p.locator('.rating-changes li a').evaluateAll((els) => els.map((e) => e.textContent));
    const pia = diffs[seats.indexOf('pia')];
    const quinn = diffs[seats.indexOf('quinn')];
    assert.ok(pia < 0 && quinn > 0, `rating changes ${seats} ${diffs}`);
  }
  await alice.locator('.rating-changes', { hasText: /−\d+/ }).waitFor();
  await shot(alice, 'rating-changes');
  // Both profiles: the new provisional blitz rating and the game, from each side.
  for (const [page, name, result, other] of [[alice, 'pia', 'lost', 'quinn'], [bob, 'quinn', 'won', 'pia']]) {
    await page.goto(`${server.url}/@/${name}`);
    const row = page.locator('[data-rating="xiangqi/blitz"]');
    await row.waitFor();
    assert.match(await row.textContent(), /\d+\?/, 'a provisional rating shows with ?');
    const game = page.locator(`[data-game-id="${id}"]`);
    assert.match(await game.textContent(), new RegExp(result));
    await game.locator(`a[data-profile="${other}"]`).waitFor();
    assert.match(await page.locator('[data-record="xiangqi"]').textContent(), result === 'won' ? /1 won, 0 drawn, 0 lost/ : /0 won, 0 drawn, 1 lost/);
    await shot(page, `profile-${name}`);
  }
  // On a phone the ratings table fits the screen.
  await alice.setViewportSize({ width: 375, height: 740 });
  await alice.goto(`${server.url}/@/pia`);
  await alice.locator('[data-rating="xiangqi/blitz"]').waitFor();
  const overflow = await alice.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await shot(alice, 'profile-phone');
  assert.ok(overflow <= 0, `the profile is ${overflow}px wider than a phone`);
  // The game's link opens its replay.
  await bob.locator(`[data-game-id="${id}"] a`).first().click();
  await bob.waitForFunction((g) => window.cannonade?.game?.snap?.game === g && !!window.cannonade.game.snap.result, id);
  // An unknown name, and markup as a name, are said to be nobody's.
  await bob.goto(`${server.url}/@/${encodeURIComponent('<b>x</b>')}`);
  await bob.locator('.profile', { hasText: 'No player has this name.' }).waitFor();
  assert.equal(await bob.locator('.profile b').count(), 0);
  // The leaderboard, reached from the header: both are still provisional, so nobody is on it.
  await bob.goto(server.url + '/');
  await bob.locator('nav a[href="#/leaderboard"]').click();
  await bob.locator('.leaderboard [data-pick="blitz"][aria-pressed="true"]').waitFor();
  await bob.locator('.leaderboard .note', { hasText: 'No one here yet' }).waitFor();
  await shot(bob, 'leaderboard');
  // A board with players (a stand-in answer: settling a deviation takes dozens of games):
  // ranked in order, names as text linking to profiles, ratings without `?`.
  const players = [['wei', 1834], ['<i>lan</i>', 1712], ['minh', 1650]].map(([name, rating]) => ({ name, game: 'xiangqi', speed: 'rapid', rating, rd: 70, provisional: false, games: 40 }));
  await bob.route('**/api/leaderboard/xiangqi?speed=rapid', (r) => r.fulfill({ json: { game: 'xiangqi', speed: 'rapid', players } }));
  await bob.locator('.leaderboard [data-pick="rapid"]').click();
  const board = bob.locator('ol.board[data-board="xiangqi/rapid"] li');
  await board.nth(2).waitFor();
  assert.deepEqual(await board.evaluateAll((els) => els.map((e) => e.textContent)), ['1.wei1834', '2.<i>lan</i>1712', '3.minh1650']);
  assert.equal(await bob.locator('ol.board i').count(), 0, 'a name was made markup');
  await bob.locator('ol.board a[data-profile="wei"][href="/@/wei"]').waitFor();
  await shot(bob, 'leaderboard-filled');
  for (const p of [alice, bob]) await p.context().close();
});
