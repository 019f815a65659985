// Drawing and picking, game by game, with a stand-in socket that replays a line of play the
// real rules crates recorded (fixtures.json, see crates/webui/examples/fixtures.rs). It
// checks what the client does with the server's messages; e2e.test.mjs checks the real
// server.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { standInSite, shot, clickSquare, clickMove, standIn, FIXTURES } from './lib.mjs';


const env = standInSite();

/** Picks the recorded move of a ply by clicking its squares, as a person would. */
async function playRecorded(page, kind, ply) {
  const p = FIXTURES[kind].plies[ply];
  const move = p.legal.find((l) => l.mv === p.mv || p.mv.startsWith(l.mv.replace(/\?$/, '')));
  assert.ok(move, `recorded move ${p.mv} is in the list`);
  await clickMove(page, move);
}

for (const kind of Object.keys(FIXTURES)) {
  test(`${kind}: the board is drawn from the server's description and plays listed moves by clicks`, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    const log = [];
    await page.routeWebSocket(/\/ws/, standIn(kind, 'both', log));
    await page.goto(`${env.site.url}/#/game/fx-${kind}`);
    await page.locator('.board .piece').first().waitFor();
    const fx = FIXTURES[kind];
    assert.equal(await page.locator('.board .piece').count(), Object.keys(fx.start.pieces).length, 'one drawn piece per listed square');
    const squares = fx.geometry.files * fx.geometry.ranks - fx.geometry.missing.length;
    assert.equal(await page.locator('.board rect.hit').count(), squares, 'one target per existing square');
    const plies = Math.min(6, fx.plies.length);
    for (let i = 0; i < plies; i++) {
      await playRecorded(page, kind, i);
      await page.locator(`.moves .mv[data-ply="${i + 1}"]`).waitFor();
      if (kind === 'commander' && i === 0) {
        // The first recorded move makes a stack: a carrier with a passenger.
        assert.equal(await page.locator('.board .piece .passenger').count(), 1);
        await shot(page, 'board-commander-stack');
      }
    }
    assert.equal(log.filter((m) => m.t === 'move').length, plies);
    assert.equal(await page.locator('.moves .mv').count(), plies);
    assert.ok(await page.locator('.board .hl.last').count() >= 1, 'the last move is marked');
    // Replay: back to the start shows the start position, then forward to the end again.
    await page.locator('[data-nav="start"]').click();
    assert.equal(await page.locator('.board .piece').count(), Object.keys(fx.start.pieces).length);
    await page.locator('[data-nav="end"]').click();
    if (kind === 'commander') {
      // The zones are the server's, square for square.
      const zones = fx.plies[plies - 1].position.air_defence;
      assert.equal(await page.locator('.board .hl.zone').count(), 0, 'zones hidden until asked');
      await page.locator('[data-action="zones"]').click();
      assert.equal(await page.locator('.board .hl.zone.first').count(), zones.first.length);
      assert.equal(await page.locator('.board .hl.zone.second').count(), zones.second.length);
    }
    await shot(page, `board-${kind}`);
    if (kind === 'xiangqi') {
      // The other piece set: pictures instead of characters, remembered.
      assert.equal(await page.locator('.board .art[data-set="characters"]').count(), Object.keys(fx.plies[plies - 1].position.pieces).length);
      await page.selectOption('#piece-set', 'figures');
      await page.locator('.board .piece').first().waitFor();
      assert.equal(await page.locator('.board .art[data-set="figures"]').count(), Object.keys(fx.plies[plies - 1].position.pieces).length);
      await page.locator('[data-action="flip"]').click();
      await shot(page, 'board-xiangqi-figures-flipped');
    }
    await page.close();
  });
}

test('spectator: a move on the board is sent as a proposal, never as a move', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const log = [];
  await page.routeWebSocket(/\/ws/, standIn('xiangqi', 'spectator', log));
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.board .piece').first().waitFor();
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  // Shown as the move list writes it (WXF), sent as the move's text.
  const display = FIXTURES.xiangqi.plies[0].legal.find((m) => m.mv === 'h2e2').display;
  await page.locator('.spectate .my-proposal', { hasText: display }).waitFor();
  assert.deepEqual(log.filter((m) => m.t === 'move'), []);
  assert.deepEqual(log.filter((m) => m.t === 'propose').map((m) => [m.ply, m.mv]), [[0, 'h2e2']]);
  await page.close();
});

test('keyboard: typed coordinates play the listed move; unknown ones are refused with a reason', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const log = [];
  await page.routeWebSocket(/\/ws/, standIn('xiangqi', 'both', log));
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.board .piece').first().waitFor();
  await page.fill('#move-entry', 'a0 a5');
  await page.press('#move-entry', 'Enter');
  assert.match(await page.locator('.entry-error').innerText(), /No legal move/);
  const first = FIXTURES.xiangqi.plies[0].mv;
  await page.fill('#move-entry', `${first.slice(0, 2)} ${first.slice(2)}`);
  await page.press('#move-entry', 'Enter');
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  assert.deepEqual(log.filter((m) => m.t === 'move').map((m) => m.mv), [first]);
  // Squares are buttons with names for screen readers.
  const label = await page.locator('.board rect.hit[data-square="e0"]').getAttribute('aria-label');
  assert.equal(label, 'e0, red general');
  await page.close();
});

test('phone screen: the whole board fits the width', async () => {
  const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await page.routeWebSocket(/\/ws/, standIn('commander', 'first', []));
  await page.goto(`${env.site.url}/#/game/fx-commander`);
  await page.locator('.board .piece').first().waitFor();
  const box = await page.locator('svg.board').boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `board within the screen: ${JSON.stringify(box)}`);
  await shot(page, 'phone-commander');
  await page.close();
});

/** The pieces drawn on the page, by square, as their unit texts. */
function drawnPieces(page) {
  return page.locator('.board .piece').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-square'), e.getAttribute('data-piece')])));
}

test('commander: terrain, river, fords, stacks and heroes are drawn from the server\'s description', async () => {
  // A made-up position (the board knows no rule): a heroic carrier with a heroic passenger.
  const fake = structuredClone(FIXTURES);
  const fx = fake.commander;
  fx.start = { ...fx.start, pieces: { ...fx.start.pieces, b6: '(+N+FT)' } };
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, standIn('commander', 'both', [], fake));
  await page.goto(`${env.site.url}/#/game/fx-commander`);
  await page.locator('.board .piece').first().waitFor();
  assert.deepEqual(await drawnPieces(page), fx.start.pieces);
  const region = (kind) => fx.geometry.regions.find((r) => r.kind === kind).squares.length;
  assert.equal(await page.locator('.board .terrain.water').count(), region('water'));
  assert.equal(await page.locator('.board .terrain.coast').count(), region('coast'));
  assert.equal(await page.locator('.board .lines line.ford').count(), fx.geometry.river.fords.length);
  const stack = page.locator('.board .piece[data-square="b6"]');
  assert.equal(await stack.locator('.passenger').count(), 2, 'a carrier and two passengers');
  assert.equal(await stack.locator('.hero').count(), 2, 'the heroic carrier and the heroic passenger');
  const label = await page.locator('.board rect.hit[data-square="b6"]').getAttribute('aria-label');
  assert.equal(label, 'b6, heroic red navy carrying heroic air force and tank');
  await page.close();
});

test('the square in check and the seat colours are the ones the server sends', async () => {
  const fake = structuredClone(FIXTURES);
  const fx = fake.banqi;
  // Before the first flip Banqi seats have no colour; the recorded flip decides them.
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, standIn('banqi', 'both', [], fake));
  await page.goto(`${env.site.url}/#/game/fx-banqi`);
  await page.locator('.board .piece').first().waitFor();
  assert.equal(fx.start.colours, null);
  assert.match(await page.locator('.player.bottom .seat-name').innerText(), /First player/);
  await playRecorded(page, 'banqi', 0);
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  const [first] = fx.plies[0].position.colours;
  const name = first[0].toUpperCase() + first.slice(1);
  assert.match(await page.locator('.player.bottom .seat-name').innerText(), new RegExp(name));
  assert.equal(await page.locator(`.player.bottom .seat-dot.${first}`).count(), 1);
  await page.close();
  // A check: the marked square is the one named, whatever stands there.
  const chk = structuredClone(FIXTURES);
  chk.xiangqi.start = { ...chk.xiangqi.start, in_check: true, check: 'e0' };
  const page2 = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page2.routeWebSocket(/\/ws/, standIn('xiangqi', 'both', [], chk));
  await page2.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page2.locator('.board .piece').first().waitFor();
  assert.equal(await page2.locator('.board .hl.check').count(), 1);
  const [x, y] = await page2.locator('.board .hl.check').evaluate((e) => [e.getAttribute('cx'), e.getAttribute('cy')]);
  const [px, py] = await page2.locator('.board .piece[data-square="e0"]').evaluate((e) => /translate\(([\d.]+) ([\d.]+)\)/.exec(e.getAttribute('transform')).slice(1));
  assert.deepEqual([Number(x), Number(y)], [Number(px), Number(py)]);
  await page2.close();
});

test('a game joined late is replayed from the positions the server sends', async () => {
  const fx = FIXTURES.commander;
  const n = 4;
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const positions = [fx.start, ...fx.plies.slice(0, n).map((p) => p.position)];
  let asked = 0;
  await page.route(/\/api\/game\/fx-late\/positions$/, (route) => {
    asked += 1;
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ game: 'fx-late', v: n, positions }) });
  });
  await page.routeWebSocket(/\/ws/, (ws) => {
    ws.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u9', name: 'late', account: false }, games: ['commander'] }));
    ws.onMessage((text) => {
      if (JSON.parse(String(text)).t !== 'watch') return;
      ws.send(JSON.stringify({
        t: 'snapshot', game: 'fx-late', v: n, kind: 'commander', options: '', rated: false, geometry: fx.geometry,
        start: fx.start, position: positions[n], moves: fx.plies.slice(0, n).map((p) => ({ mv: p.mv, display: p.display, seat: p.seat })),
        players: [{ name: 'Alice', rating: null, ai: false, online: true }, { name: 'Bob', rating: null, ai: false, online: true }],
        you: 'spectator', time_control: { initial_ms: 0, increment_ms: 0 }, clock: { remaining_ms: [0, 0], running: null },
        legal: fx.plies[n].legal, offers: [], result: null, commitment: null, seed: null, spectators: 1, chat: [],
        crowd: { first: { agreed: 0, of: 0 }, second: { agreed: 0, of: 0 } }, rematch: null,
      }));
    });
  });
  await page.goto(`${env.site.url}/#/game/fx-late`);
  await page.locator('.board .piece').first().waitFor();
  for (let ply = 1; ply < n; ply++) {
    await page.locator(`.moves .mv[data-ply="${ply}"]`).click();
    await page.locator(`.moves .mv.current[data-ply="${ply}"]`).waitFor();
    assert.deepEqual(await drawnPieces(page), positions[ply].pieces, `the position after move ${ply}`);
  }
  assert.equal(asked, 1, 'the positions are asked for once');
  assert.equal(await page.locator('.entry-error').innerText(), '');
  await page.close();
});

test('home: only the games the server announces in welcome are offered', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const only = { xiangqi: FIXTURES.xiangqi, banqi: FIXTURES.banqi };
  await page.routeWebSocket(/\/ws/, standIn('xiangqi', 'both', [], only));
  await page.goto(`${env.site.url}/#/`);
  await page.locator('.game-pick [data-game="commander"][disabled]').waitFor();
  assert.equal(await page.locator('.game-pick [data-game="xiangqi"]:not([disabled])').count(), 1);
  assert.equal(await page.locator('.game-pick [data-game="chessbattle"][disabled]').count(), 1);
  assert.equal(await page.locator('.game-pick [data-game="banqi"][disabled]').count(), 0);
  await page.close();
});

test('my games: the server\'s list, or the device\'s when the server cannot answer', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, standIn('xiangqi', 'both', []));
  let auth = null;
  await page.route(/\/api\/my-games$/, (route) => {
    auth = route.request().headers().authorization ?? 'none';
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ games: [
      { id: 'g1', game: 'commander', players: ['tester', 'AI level 1'], you: 'first', result: { winner: 'first', reason: 'checkmate' }, created_ms: 1700000000000 },
      { id: 'g2', game: 'xiangqi', players: ['Bob', 'tester'], you: 'second', result: null, created_ms: 1700000000000 },
    ] }) });
  });
  await page.goto(`${env.site.url}/#/past`);
  await page.locator('.past [data-past="g1"]').waitFor();
  assert.match(await page.locator('.past li').first().innerText(), /Commander Chess: tester – AI level 1 · won \(checkmate\)/);
  assert.match(await page.locator('.past li').nth(1).innerText(), /in progress/);
  assert.equal(auth, 'none', 'the session is the cookie: the page holds no token to send');
  await page.unroute(/\/api\/my-games$/);
  await page.route(/\/api\/my-games$/, (route) => route.fulfill({ status: 503, body: '{}' }));
  await page.evaluate(() => localStorage.setItem('cannonade_games', JSON.stringify([{ id: 'd1', kind: 'banqi', players: ['a', 'b'], result: 'in progress', moves: 3, role: 'spectator', at: 1700000000000 }])));
  await page.goto(`${env.site.url}/#/lobby`);
  await page.goto(`${env.site.url}/#/past`);
  await page.locator('.past a[href="#/game/d1"]').waitFor();
  assert.match(await page.locator('.past h2').innerText(), /on this device/);
  await page.close();
});

test('a chain of landings is picked by its first and last squares, or landing by landing', async () => {
  // A made-up list (the board knows no rule): a capture chain and its first capture alone.
  const fake = structuredClone(FIXTURES);
  const fx = fake.banqi;
  const chain = { mv: 'a1xa3xc3', squares: ['a1', 'a3', 'c3'], display: 'a1xa3xc3' };
  const single = { mv: 'a1xa3', squares: ['a1', 'a3'], display: 'a1xa3' };
  fx.plies[0] = { ...fx.plies[0], legal: [chain, single], mv: chain.mv, display: chain.mv };
  fx.plies[1] = { ...fx.plies[1], legal: [chain, single], mv: single.mv, display: single.mv };
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  const log = [];
  await page.routeWebSocket(/\/ws/, standIn('banqi', 'both', log, fake));
  await page.goto(`${env.site.url}/#/game/fx-banqi`);
  await page.locator('.board .piece').first().waitFor();
  await clickSquare(page, 'a1');
  await clickSquare(page, 'c3');
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  // Landing on a3 could stop there or go on: the board asks, and "a1xa3" stops.
  await clickSquare(page, 'a1');
  await clickSquare(page, 'a3');
  assert.ok(await page.locator('.board .dest[data-dest="c3"]').count(), 'the next landing is offered');
  await page.locator('.picker button[data-mv="a1xa3"]').click();
  await page.locator('.moves .mv[data-ply="2"]').waitFor();
  assert.deepEqual(log.filter((m) => m.t === 'move').map((m) => m.mv), ['a1xa3xc3', 'a1xa3']);
  await page.close();
});
