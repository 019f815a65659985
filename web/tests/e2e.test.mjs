// End to end: Debian's Chromium against the real `cannonade serve` (the binary built by
// cargo, a fresh SQLite file). The page only ever clicks what a person would click; the
// test reads the listed legal moves from the page's state to choose which squares to click,
// as the client itself knows no rule.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realSite, shot, clickMove, ARTIFACTS } from './lib.mjs';

const { server, skip, newPage } = await realSite();

const GAMES = ['xiangqi', 'banqi', 'chessbattle', 'commander'];

/** The game state the page holds (what the server sent it). */
function state(page) {
  return page.evaluate(() => {
    const g = window.cannonade?.game;
    const s = g?.snap;
    if (!s) return null;
    return {
      id: s.game, you: s.you, moves: s.moves.length, legal: s.legal, result: s.result,
      toMove: s.position.to_move, net: window.cannonade.net.status, offers: s.offers,
    };
  });
}

/** Waits until the page's game satisfies `f`. */
async function until(page, f, what, timeout = 30000) {
  const end = Date.now() + timeout;
  for (;;) {
    const s = await state(page);
    if (s && f(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(s)?.slice(0, 300)}`);
    await page.waitForTimeout(50);
  }
}

/** A deterministic pick among the listed moves: prefer captures ("x") to end games sooner. */
function choose(legal, n) {
  const captures = legal.filter((m) => /x|\*/.test(m.mv));
  const pool = captures.length ? captures : legal;
  return pool[(n * 7919) % pool.length];
}

/** The air-defence squares drawn on the board and those the server sent for the position. */
async function zoneCounts(page) {
  const drawn = {
    first: await page.locator('.board .hl.zone.first').count(),
    second: await page.locator('.board .hl.zone.second').count(),
  };
  const sent = await page.evaluate(() => {
    const z = window.cannonade.game?.snap?.position?.air_defence;
    return { first: new Set(z?.first ?? []).size, second: new Set(z?.second ?? []).size };
  });
  return { drawn, sent };
}

/** Starts a game from the home screen. */
async function start(page, game, mode, extra = async () => {}) {
  await page.goto(server.url + '/');
  await page.locator(`.game-pick [data-game="${game}"]`).click();
  await page.selectOption('#clock', '0');
  await extra();
  await page.locator(`[data-mode="${mode}"]`).click();
  await page.locator('.board .piece').first().waitFor();
  return until(page, (s) => !!s.id, 'the game');
}

async function resign(page) {
  page.once('dialog', (d) => d.accept());
  await page.locator('[data-action="resign"]').click();
  return until(page, (s) => !!s.result, 'the end after resigning');
}

/** @type {Record<string, string>} how each AI game ended, for the docs */
const endings = {};

for (const game of GAMES) {
  test(`${game}: a complete game against the AI at level 1`, { skip: skip(), timeout: 240000 }, async () => {
    const page = await newPage();
    await start(page, game, 'ai', async () => {
      await page.selectOption('#level', '1');
      await page.selectOption('#seat', 'first');
    });
    if (game === 'commander') {
      // The real server's air-defence zones, shown from the start, where both armies have
      // their anti-aircraft pieces (a position later in the game may have none left).
      await page.locator('[data-action="zones"]').click();
      const zones = await zoneCounts(page);
      assert.ok(zones.drawn.first > 0, 'Red\'s zones');
      assert.ok(zones.drawn.second > 0, 'Blue\'s zones');
    }
    // The move entry's example is a move of this game that can be played now.
    const first = await until(page, (x) => !!x.legal?.length, 'our first turn');
    const placeholder = await page.locator('#move-entry').getAttribute('placeholder');
    assert.ok(placeholder?.includes(first.legal[0].mv), `${game}: ${placeholder}`);
    // Up to 40 of our moves; a game still running then is resigned (the end screen, the
    // record and the export are what is checked either way).
    let n = 0;
    for (; n < 40; n++) {
      const s = await until(page, (x) => !!x.result || (x.toMove === 'first' && !!x.legal?.length), 'our turn', 60000);
      if (s.result) break;
      await clickMove(page, choose(s.legal, n));
      await until(page, (x) => x.moves > s.moves, 'our move to be played');
    }
    let s = await state(page);
    if (!s.result) s = await resign(page);
    endings[game] = `${s.result.reason} after ${s.moves} moves`;
    await page.locator('.end .result').waitFor();
    assert.ok(s.moves >= 2, 'both sides moved');
    assert.equal(await page.locator('.moves .mv').count(), s.moves, 'the move list has every move');
    if (game === 'commander') {
      // The real server's board: terrain, river with fords, and its air-defence zones.
      assert.equal(await page.locator('.board .terrain.water').count(), 24);
      assert.equal(await page.locator('.board .terrain.coast').count(), 16);
      assert.equal(await page.locator('.board .lines line.ford').count(), 2);
      // Still shown at the end, square for square what the server sent for the position.
      const zones = await zoneCounts(page);
      assert.deepEqual(zones.drawn, zones.sent, 'the zones of the final position');
    }
    await shot(page, `e2e-ai-${game}`);
    await page.context().close();
  });
}

test('hot-seat: one page plays both sides, then resigns', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  const s0 = await start(page, 'xiangqi', 'hotseat');
  assert.equal(s0.you, 'both');
  for (let n = 0; n < 10; n++) {
    const s = await until(page, (x) => !!x.legal?.length, 'a move to play');
    await clickMove(page, choose(s.legal, n));
    await until(page, (x) => x.moves === s.moves + 1, 'the move');
  }
  assert.equal(await page.locator('.moves .mv').count(), 10);
  const end = await resign(page);
  assert.ok(end.result.winner, 'someone won by resignation');
  await shot(page, 'e2e-hotseat');
  // Past games: the server's list of this session's games, opened again, replayed from the
  // start with the positions the server sends.
  await page.goto(server.url + '/#/past');
  await page.locator(`.past ul[data-source="server"] a[href="#/game/${s0.id}"]`).click();
  await until(page, (s) => s.id === s0.id && !!s.result, 'the finished game');
  await page.locator('[data-nav="start"]').click();
  assert.equal(await page.locator('.board .piece').count(), 32, 'the start position');
  await page.locator('[data-nav="forward"]').click();
  assert.equal(await page.locator('.moves .mv.current').getAttribute('data-ply'), '1');
  assert.equal(await page.locator('.entry-error').innerText(), '', 'every position is available');
  const seen = await page.locator('.board .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')).sort());
  await page.context().close();
  // Someone who never saw the game (a fresh browser) replays it too.
  const other = await newPage();
  await other.goto(`${server.url}/#/game/${s0.id}`);
  await until(other, (s) => s.id === s0.id && !!s.result, 'the finished game, elsewhere');
  await other.locator('.moves .mv[data-ply="1"]').click();
  await other.locator('.moves .mv.current[data-ply="1"]').waitFor();
  const there = await other.locator('.board .piece').evaluateAll((els) => els.map((e) => e.getAttribute('data-square')).sort());
  assert.deepEqual(there, seen, 'the same position after the first move');
  await other.context().close();
});

test('rules pages draw their figures on the boards the server describes', { skip: skip(), timeout: 60000 }, async () => {
  const page = await newPage();
  for (const game of GAMES) {
    await page.goto(`${server.url}/rules/${game}.html`);
    await page.locator('figure .board .piece').first().waitFor();
  }
  // The last one is Commander's: its terrain comes from /api/geometry.
  assert.ok(await page.locator('figure .board .terrain.water').count() > 0);
  assert.equal(await page.locator('figure[data-start] .board .lines line.ford').count(), 2);
  await page.context().close();
});

test('online: two players and a spectator who proposes; players never see proposals', { skip: skip(), timeout: 180000 }, async () => {
  const alice = await newPage();
  const bob = await newPage();
  const carol = await newPage({ width: 390, height: 844 });
  // Alice seeks, Bob accepts from the lobby.
  await alice.goto(server.url + '/');
  await alice.locator('.game-pick [data-game="xiangqi"]').click();
  await alice.selectOption('#clock', '2');
  await alice.locator('[data-mode="seek"]').click();
  await bob.goto(server.url + '/#/lobby');
  await bob.locator('.seeks button[data-seek]').first().click();
  const a0 = await until(alice, (s) => !!s.id, 'Alice in the game');
  const b0 = await until(bob, (s) => s.id === a0.id, 'Bob in the game');
  assert.notEqual(a0.you, b0.you);
  // Carol finds the game among the live ones and watches.
  await carol.goto(server.url + '/#/live');
  await carol.locator(`[data-watch="${a0.id}"]`).click();
  const c0 = await until(carol, (s) => s.id === a0.id, 'Carol watching');
  assert.equal(c0.you, 'spectator');
  const players = { first: a0.you === 'first' ? alice : bob, second: a0.you === 'first' ? bob : alice };
  const noProposals = async () => {
    for (const p of [alice, bob]) {
      assert.equal(await p.locator('.spectate:not([hidden])').count(), 0, 'no proposal box for players');
      assert.equal(await p.locator('.tally, .reveal, .my-proposal').count(), 0, 'no tallies for players');
      assert.equal(await p.locator('.review-crowd, .review-crowd-you, .review-crowd-ply, .crowd-judged').count(), 0, 'no crowd summary while the game runs');
    }
  };
  for (let n = 0; n < 6; n++) {
    const c = await until(carol, (s) => s.moves === n && !!s.legal?.length, 'the spectator to have the legal moves');
    const proposal = choose(c.legal, n + 3);
    await clickMove(carol, proposal);
    await carol.locator('.my-proposal', { hasText: proposal.display }).waitFor();
    const mover = players[c.toMove];
    const s = await until(mover, (x) => x.moves === n && !!x.legal?.length, 'the player to move');
    await noProposals();
    await clickMove(mover, choose(s.legal, n));
    await until(carol, (x) => x.moves === n + 1, 'the spectator to see the move');
  }
  await carol.locator('.reveal').waitFor();
  await carol.locator('.score').waitFor();
  // The engine's word on the plies already played, with the last move's ply in words.
  await carol.locator('.spectate .crowd-judged').waitFor();
  await carol.locator('.spectate .review-crowd-ply').waitFor();
  await shot(carol, 'e2e-spectator-phone');
  await noProposals();
  await shot(alice, 'e2e-online-player');
  // Offers: a draw declined, then a takeback accepted.
  await alice.locator('[data-action="draw"]').click();
  await bob.locator('[data-decline="draw"]').click();
  await until(alice, (s) => s.offers.length === 0 && !s.result, 'the draw offer to be declined');
  const before = (await state(alice)).moves;
  await alice.locator('[data-action="takeback"]').click();
  await bob.locator('[data-accept="takeback"]').click();
  await until(alice, (s) => s.moves < before, 'the takeback');
  await until(carol, (s) => s.moves < before, 'the spectator to see the takeback');
  await resign(alice);
  await until(bob, (s) => !!s.result, 'Bob to see the end');
  await until(carol, (s) => !!s.result, 'Carol to see the end');
  await carol.locator('.end .crowd').waitFor();
  await bob.locator('.end .crowd').waitFor();
  await shot(bob, 'e2e-online-end');
  // Once the game is reviewed, the crowd against the engine: on a player's page how often
  // the spectators' favourite was as good as the move played, on the spectator's also
  // their own proposals judged by the engine.
  const found = bob.locator('.review .review-crowd');
  await found.waitFor({ timeout: 60000 });
  assert.match(await found.innerText(), /\d+ of \d+ moves/);
  const mine = carol.locator('.review .review-crowd-you');
  await mine.waitFor({ timeout: 60000 });
  assert.match(await mine.innerText(), /Your proposals: \d+ of [1-9]\d* /);
  assert.equal(await bob.locator('.review-crowd-you').count(), 0, 'a player proposed nothing');
  await shot(carol, 'e2e-crowd-review');
  // A rematch: offered by Bob, accepted by Alice; both pages move to the new game.
  await bob.locator('[data-action="rematch"]').click();
  await alice.locator('[data-accept="rematch"]').click();
  const a1 = await until(alice, (s) => s.id !== a0.id && !s.result, 'Alice in the rematch');
  await until(bob, (s) => s.id === a1.id, 'Bob in the rematch');
  assert.equal(a1.you, b0.you, 'seats are swapped in the rematch');
  for (const p of [alice, bob, carol]) await p.context().close();
});

test('reconnect: a cut socket shows the reconnecting state, then catches up with missed moves', { skip: skip(), timeout: 120000 }, async () => {
  const alice = await newPage();
  const bob = await newPage();
  await alice.goto(server.url + '/');
  await alice.locator('.game-pick [data-game="xiangqi"]').click();
  await alice.selectOption('#clock', '0');
  await alice.locator('[data-mode="invite"]').click();
  const link = await alice.locator('#invite-link').inputValue();
  await bob.goto(link);
  await bob.locator('[data-mode="accept-invite"]').click();
  const a0 = await until(alice, (s) => !!s.id, 'Alice in the game');
  await until(bob, (s) => s.id === a0.id, 'Bob in the game');
  const [first, second] = a0.you === 'first' ? [alice, bob] : [bob, alice];
  const f = await until(first, (s) => !!s.legal?.length, 'the first move');
  await clickMove(first, choose(f.legal, 1));
  // Cut the second player's socket and keep it cut while... the first player waits: the
  // second must reconnect to answer. The page says so while it is away.
  /** @type {string[]} */
  const sockets = [];
  second.on('websocket', (ws) => sockets.push(ws.url()));
  const user = await second.evaluate(() => window.cannonade.net.user.id);
  await second.evaluate(() => {
    const net = window.cannonade.net;
    net.cut();
  });
  await second.locator('.status.reconnecting').waitFor({ timeout: 5000 });
  await shot(second, 'e2e-reconnecting');
  const s = await until(second, (x) => x.net === 'open' && x.moves === 1 && !!x.legal?.length, 'the reconnected page to catch up', 20000);
  // The session came back with its cookie: nothing of it is in the socket's address.
  assert.equal(await second.evaluate(() => window.cannonade.net.user.id), user, 'the same session');
  assert.ok(sockets.length >= 1 && sockets.every((u) => !/token/.test(u)), sockets.join(' '));
  await clickMove(second, choose(s.legal, 2));
  await until(first, (x) => x.moves === 2, 'the move after reconnecting to arrive');
  // Now cut the first player's socket while the second... has moved: the missed moves
  // come back through `watch` with the last version.
  const g = await until(first, (x) => !!x.legal?.length, 'the first player to move');
  await clickMove(first, choose(g.legal, 3));
  await first.evaluate(() => window.cannonade.net.cut());
  const t = await until(second, (x) => x.moves === 3 && !!x.legal?.length, 'the second to move');
  await clickMove(second, choose(t.legal, 4));
  await until(first, (x) => x.net === 'open' && x.moves === 4, 'the first player to get the move made while away', 20000);
  assert.equal(await first.locator('.moves .mv').count(), 4);
  await alice.context().close();
  await bob.context().close();
});

test('abandonment: when the opponent leaves for good, the page offers the claim and wins', { skip: skip(), timeout: 120000 }, async () => {
  const alice = await newPage();
  const bob = await newPage();
  await alice.goto(server.url + '/');
  await alice.locator('.game-pick [data-game="chessbattle"]').click();
  await alice.selectOption('#clock', '0');
  await alice.locator('[data-mode="invite"]').click();
  const link = await alice.locator('#invite-link').inputValue();
  await bob.goto(link);
  await bob.locator('[data-mode="accept-invite"]').click();
  const a0 = await until(alice, (s) => !!s.id, 'Alice in the game');
  await until(bob, (s) => s.id === a0.id, 'Bob in the game');
  await bob.context().close();
  await alice.locator('.player .away').waitFor({ timeout: 10000 });
  // The test server's grace period is 5 s.
  await alice.locator('[data-action="claim"]').click({ timeout: 15000 });
  const end = await until(alice, (s) => !!s.result, 'the claimed win');
  assert.equal(end.result.winner, a0.you);
  assert.equal(end.result.reason, 'abandonment');
  await alice.context().close();
});

test('load: time to an interactive board and bytes loaded', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  const s = await start(page, 'xiangqi', 'hotseat');
  const samples = [];
  let bytes = 0;
  for (let i = 0; i < 7; i++) {
    const fresh = await newPage();
    await fresh.goto(`${server.url}/#/game/${s.id}`);
    await fresh.locator('.board rect.hit[tabindex="0"]').first().waitFor();
    const m = await fresh.evaluate(() => {
      const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
      const res = performance.getEntriesByType('resource');
      return {
        interactiveMs: performance.getEntriesByName('board-interactive')[0].startTime,
        bytes: nav.transferSize + res.reduce((a, r) => a + /** @type {PerformanceResourceTiming} */ (r).transferSize, 0),
        decoded: nav.decodedBodySize + res.reduce((a, r) => a + /** @type {PerformanceResourceTiming} */ (r).decodedBodySize, 0),
        files: res.length + 1,
      };
    });
    samples.push(m.interactiveMs);
    bytes = m;
    await fresh.context().close();
  }
  samples.sort((a, b) => a - b);
  const out = { medianInteractiveMs: Math.round(samples[3]), samplesMs: samples.map(Math.round), ...bytes, endings };
  writeFileSync(join(ARTIFACTS, 'load-metrics.json'), JSON.stringify(out, null, 2));
  console.log('load metrics', JSON.stringify(out));
  assert.ok(out.medianInteractiveMs < 5000, 'interactive within 5 s on localhost');
  await page.context().close();
});
