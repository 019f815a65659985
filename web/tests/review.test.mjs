// The engine's review of a finished game in the page (issue 25, docs/analysis.md): the
// evaluation graph under the board, the judged moves marked in the move list, a click on
// the graph moving the replay, the best move drawn as an arrow, and for Banqi the note that
// values are expectations. Against the real `cannonade serve`, which lib.mjs starts with
// `--review-depth 1` so that a review takes a moment.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot, clickMove, pageUser } from './lib.mjs';

const { server, skip, newPage } = await realSite();

/**
 * Red pushes soldiers while Black walks its chariot to h8, where Red's cannon takes it over
 * Black's own cannon: 2… a8h8 is a blunder at any depth.
 */
const HUNG_CHARIOT = '[Variant "xiangqi"]\n[Result "1-0"]\n\n1. i3i4 a9a8 2. i4i5 a8h8 3. h2h8 1-0\n';

/** Imports a record as this page's session and returns the game's id. */
async function importGame(page, pgn) {
  const ids = await page.evaluate(async (body) => {
    const r = await fetch('/api/import', { method: 'POST', body, credentials: 'same-origin' });
    if (!r.ok) throw new Error(`import: ${r.status} ${await r.text()}`);
    return (await r.json()).games;
  }, pgn);
  return ids[0];
}

/** The ply the page's replay shows. */
function shownPly(page) {
  return page.evaluate(() => {
    const g = window.cannonade.game;
    return g.viewPly ?? g.snap.moves.length;
  });
}

test('an imported game is reviewed on request: graph, marks, arrow and a click on the graph', { skip: skip(), timeout: 120000 }, async () => {
  let id = '';
  for (const lang of ['en', 'vi']) {
    const page = await newPage();
    await page.addInitScript((l) => localStorage.setItem('cannonade_lang', l), lang);
    await page.goto(server.url + '/');
    await pageUser(page);
    if (!id) id = await importGame(page, HUNG_CHARIOT);
    await page.goto(`${server.url}/#/game/${id}`);
    // No review yet: the page offers to ask for one.
    const ask = page.locator('.review [data-action="request-review"]');
    if (lang === 'en') {
      await ask.waitFor();
      await ask.click();
    } else {
      // The English page asked already: this one finds the stored review.
      assert.equal(await ask.count(), 0);
    }
    const graph = page.locator('.review-below svg.evalgraph');
    await graph.waitFor({ timeout: 60000 });
    assert.ok((await graph.getAttribute('aria-label'))?.length, 'the graph has a label');
    assert.equal(await graph.getAttribute('role'), 'slider');
    // One point per ply: the start and five moves.
    assert.equal(await page.locator('.evalgraph .eg-hit').count(), 6);
    // Black's 2… a8h8 (the fourth move) is a blunder, marked in the list and on the graph.
    const blunder = page.locator('.moves .mv[data-ply="4"]');
    assert.equal(await blunder.getAttribute('data-judgement'), 'blunder');
    assert.match(await blunder.innerText(), /\?\?$/);
    assert.equal(await page.locator('.evalgraph .eg-mark.blunder[data-ply="4"]').count(), 1);
    // Accuracy per player: Red's better than Black's.
    const acc = await page.locator('.review-table td.accuracy').allInnerTexts();
    assert.equal(acc.length, 2);
    const [red, black] = acc.map((x) => parseInt(x, 10));
    assert.ok(red > black, `accuracies ${acc}`);
    // A click on the graph goes to that ply; the arrow shows the best move there.
    await page.locator('.evalgraph .eg-hit[data-ply="3"]').click({ force: true });
    await page.waitForFunction(() => window.cannonade.game.viewPly === 3);
    assert.equal(await page.locator('.moves .mv.current[data-ply="3"]').count(), 1);
    const arrow = page.locator('.board .arrows .arrow');
    assert.equal(await arrow.count(), 1);
    const best = await page.evaluate(() => window.cannonade.game.review.at(3).best);
    assert.equal(await arrow.getAttribute('data-from'), best.slice(0, 2));
    assert.ok(await page.locator('.review-here .review-line').count(), 'the line is written out');
    // At the blunder's position the page says what was best instead.
    await page.locator('.evalgraph .eg-hit[data-ply="4"]').click({ force: true });
    await page.waitForFunction(() => window.cannonade.game.viewPly === 4);
    assert.equal(await page.locator('.review-here .review-was.blunder').count(), 1);
    // The replay's arrow keys move the graph's mark too.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => window.cannonade.game.viewPly === 3);
    assert.equal(await graph.getAttribute('aria-valuenow'), '3');
    await shot(page, `review-xiangqi-${lang}`);
    if (lang === 'vi') {
      // On a phone the graph and the review's words go under the board, in the one column.
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'review-xiangqi-phone-vi');
    }
    await page.context().close();
  }
});

/** Plays `plies` listed moves of a new hot-seat game of `game`, then resigns. */
async function hotseatGame(page, game, plies) {
  await page.goto(server.url + '/');
  // The home page's buttons send on the socket: a click before it opens is lost.
  await pageUser(page);
  await page.locator(`.game-pick [data-game="${game}"]`).click();
  await page.selectOption('#clock', '0');
  await page.locator('[data-mode="hotseat"]').click();
  await page.locator('.board .piece').first().waitFor();
  for (let n = 0; n < plies; n++) {
    await page.waitForFunction((k) => window.cannonade.game?.snap?.moves.length === k && !!window.cannonade.game.snap.legal?.length, n);
    const legal = await page.evaluate(() => window.cannonade.game.snap.legal);
    await clickMove(page, legal[(n * 7) % legal.length]);
  }
  await page.waitForFunction((k) => window.cannonade.game.snap.moves.length === k, plies);
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-action="resign"]').click();
  await page.locator('.review-below svg.evalgraph').waitFor({ timeout: 60000 });
}

for (const game of ['chessbattle', 'commander']) {
  test(`${game}: the best move's arrow goes from its first square to its last`, { skip: skip(), timeout: 120000 }, async () => {
    const page = await newPage();
    await hotseatGame(page, game, 2);
    for (const ply of [0, 1]) {
      await page.locator(`.evalgraph .eg-hit[data-ply="${ply}"]`).click({ force: true });
      await page.waitForFunction((p) => window.cannonade.game.viewPly === p, ply);
      const best = await page.evaluate((p) => window.cannonade.game.review.at(p).best, ply);
      const squares = best.match(/[a-z]\d+/g);
      const arrow = page.locator('.board .arrows .arrow');
      assert.equal(await arrow.count(), 1, `an arrow for ${best}`);
      assert.deepEqual([await arrow.getAttribute('data-from'), await arrow.getAttribute('data-to')], [squares[0], squares[squares.length - 1]]);
    }
    await shot(page, `review-${game}-en`);
    await page.context().close();
  });
}

test('a hot-seat Banqi game is reviewed when it ends, and says its values are expectations', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await hotseatGame(page, 'banqi', 4);
  assert.equal(await page.locator('.review .review-expectation').count(), 1);
  assert.equal(await page.locator('.evalgraph .eg-hit').count(), 5);
  assert.equal(await shownPly(page), 4);
  await page.locator('.evalgraph .eg-hit[data-ply="1"]').click({ force: true });
  await page.waitForFunction(() => window.cannonade.game.viewPly === 1);
  await shot(page, 'review-banqi-en');
});
