// How the board feels, with a stand-in socket replaying recorded lines (fixtures.json): the
// dragged piece under the pointer, moves that slide, one premove, the check glow, sounds,
// replay by keyboard, typed moves, the legend, and step-by-step Commander deploys.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { standInSite, shot, clickSquare, clickMove, standIn, FIXTURES } from './lib.mjs';

const env = standInSite();

async function open(kind, role = 'both', log = [], fixtures = FIXTURES, viewport = { width: 1100, height: 900 }) {
  const page = await env.browser.newPage({ viewport });
  await page.routeWebSocket(/\/ws/, standIn(kind, role, log, fixtures));
  await page.goto(`${env.site.url}/#/game/fx-${kind}`);
  await page.locator('.board .piece').first().waitFor();
  return page;
}

/** The centre of a square on the screen. */
async function centre(page, sq) {
  const box = await page.locator(`.board rect.hit[data-square="${sq}"]`).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

test('drag: the dragged piece stays under the pointer, and the drop plays the move', async () => {
  const log = [];
  const page = await open('xiangqi', 'both', log);
  const mv = FIXTURES.xiangqi.plies[0].legal.find((m) => m.mv === FIXTURES.xiangqi.plies[0].mv);
  const [x0, y0] = await centre(page, mv.squares[0]);
  const [x1, y1] = await centre(page, mv.squares[1]);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  for (const k of [0.25, 0.5, 0.8]) {
    const [x, y] = [x0 + (x1 - x0) * k + 7, y0 + (y1 - y0) * k - 5];
    await page.mouse.move(x, y, { steps: 3 });
    const box = await page.locator('.board .piece.ghost .disc').boundingBox();
    assert.ok(box, 'a dragged piece is drawn');
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    assert.ok(Math.abs(cx - x) <= 2 && Math.abs(cy - y) <= 2, `the piece's centre (${cx}, ${cy}) is within 2 px of the pointer (${x}, ${y})`);
  }
  await shot(page, 'feel-drag');
  await page.mouse.move(x1, y1, { steps: 2 });
  await page.mouse.up();
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  assert.deepEqual(log.filter((m) => m.t === 'move').map((m) => m.mv), [mv.mv]);
  await page.close();
});

test('animation: a move played slides into place', async () => {
  const page = await open('xiangqi');
  const before = await page.evaluate(() => window.cannonade.game.board.animations);
  await clickMove(page, FIXTURES.xiangqi.plies[0].legal.find((m) => m.mv === FIXTURES.xiangqi.plies[0].mv));
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  const to = FIXTURES.xiangqi.plies[0].mv.slice(2);
  const after = await page.evaluate(() => window.cannonade.game.board.animations);
  assert.equal(after, before + 1, 'one animation ran');
  await page.locator(`.board .piece.moving`).waitFor({ state: 'detached', timeout: 2000 });
  const [px, py] = await page.locator(`.board .piece[data-square="${to}"]`).evaluate((e) => /translate\(([\d.]+) ([\d.]+)\)/.exec(e.getAttribute('transform')).slice(1).map(Number));
  const hit = await page.locator(`.board rect.hit[data-square="${to}"]`).evaluate((e) => [Number(e.getAttribute('x')) + 30, Number(e.getAttribute('y')) + 30]);
  assert.deepEqual([px, py], hit, 'it ends on its square');
  await page.close();
});

/**
 * A stand-in for the premove test: the page plays first; its move is answered by the event
 * and no legal list (the opponent's turn) until the test sends the opponent's move.
 */
function premoveServer(log) {
  const fx = FIXTURES.xiangqi;
  let socket;
  const event = (ply, legal) => JSON.stringify({
    t: 'event', game: 'fx-xiangqi', v: ply + 1,
    event: { e: 'moved', ply, mv: fx.plies[ply].mv, display: fx.plies[ply].display, seat: fx.plies[ply].seat, position: fx.plies[ply].position, clock: { remaining_ms: [300000, 300000], running: null } },
    legal,
  });
  const handler = (ws) => {
    socket = ws;
    ws.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u1', name: 'tester', account: false }, games: ['xiangqi'] }));
    ws.onMessage((text) => {
      const m = JSON.parse(String(text));
      log.push(m);
      if (m.t === 'watch') {
        ws.send(JSON.stringify({
          t: 'snapshot', game: 'fx-xiangqi', v: 0, kind: 'xiangqi', options: '', rated: false, geometry: fx.geometry,
          start: fx.start, position: fx.start, moves: [],
          players: [{ name: 'Me', rating: null, ai: false, online: true }, { name: 'Them', rating: null, ai: false, online: true }],
          you: 'first', time_control: { initial_ms: 0, increment_ms: 0 }, clock: { remaining_ms: [0, 0], running: null },
          legal: fx.plies[0].legal, offers: [], result: null, commitment: null, seed: null, spectators: 0, chat: [], crowd: null, rematch: null,
        }));
      }
      if (m.t === 'move' && m.ply === 0) ws.send(event(0, null));
    });
  };
  return { handler, opponentMoves: () => socket.send(event(1, fx.plies[2].legal)) };
}

test('premove: set between turns, played when the opponent has moved; right click cancels', async () => {
  const fx = FIXTURES.xiangqi;
  const log = [];
  const server = premoveServer(log);
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, server.handler);
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.board .piece').first().waitFor();
  await clickMove(page, fx.plies[0].legal.find((m) => m.mv === fx.plies[0].mv));
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  // A premove set and cancelled with a right click: nothing is left.
  const third = fx.plies[2].legal.find((m) => m.mv === fx.plies[2].mv);
  await clickSquare(page, third.squares[0]);
  await clickSquare(page, third.squares[1]);
  assert.equal(await page.locator('.board .hl.premove').count(), 2, 'the premove is shown');
  const [x, y] = await centre(page, 'e5');
  await page.mouse.click(x, y, { button: 'right' });
  assert.equal(await page.locator('.board .hl.premove').count(), 0, 'a right click cancels it');
  // Set again (Escape cancels too), then set for real.
  await clickSquare(page, third.squares[0]);
  await clickSquare(page, third.squares[1]);
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.board .hl.premove').count(), 0, 'Escape cancels it');
  await clickSquare(page, third.squares[0]);
  await clickSquare(page, third.squares[1]);
  await shot(page, 'feel-premove');
  server.opponentMoves();
  await page.locator('.moves .mv[data-ply="2"]').waitFor();
  await page.waitForFunction(() => window.cannonade.game.snap.legal === null);
  assert.deepEqual(log.filter((m) => m.t === 'move').map((m) => [m.ply, m.mv]), [[0, fx.plies[0].mv], [2, third.mv]], 'the premove was played at once');
  await page.close();
});

test('check: a glow on the royal piece inside the board, and the status says so above it', async () => {
  const chk = structuredClone(FIXTURES);
  chk.xiangqi.start = { ...chk.xiangqi.start, in_check: true, check: 'e0' };
  const page = await open('xiangqi', 'both', [], chk);
  const glow = page.locator('.board .hl.check');
  assert.equal(await glow.getAttribute('fill'), 'url(#check-glow)');
  assert.equal(await glow.getAttribute('data-square'), 'e0');
  const status = await page.locator('.status.check').boundingBox();
  const board = await page.locator('svg.board').boundingBox();
  assert.ok(status.y < board.y, 'the check line is above the board, in view');
  await shot(page, 'feel-check');
  await page.close();
});

test('sounds: a move, a flip and a capture each have their own', async () => {
  const page = await open('banqi');
  for (let i = 0; i < 8; i++) {
    const p = FIXTURES.banqi.plies[i];
    await clickMove(page, p.legal.find((l) => l.mv === p.mv || p.mv.startsWith(l.mv.replace(/\?$/, ''))));
    await page.locator(`.moves .mv[data-ply="${i + 1}"]`).waitFor();
  }
  const sounds = await page.evaluate(() => window.cannonade.sounds);
  assert.ok(sounds.flip >= 1, `flips sound (${JSON.stringify(sounds)})`);
  assert.ok(sounds.capture >= 1, `captures sound (${JSON.stringify(sounds)})`);
  await page.close();
});

test('replay: arrow keys and Home/End step through the game, and the page says which move it shows', async () => {
  const page = await open('xiangqi');
  for (let i = 0; i < 3; i++) {
    const p = FIXTURES.xiangqi.plies[i];
    await clickMove(page, p.legal.find((l) => l.mv === p.mv));
    await page.locator(`.moves .mv[data-ply="${i + 1}"]`).waitFor();
  }
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('ArrowLeft');
  await page.locator('.moves .mv.current[data-ply="2"]').waitFor();
  const d2 = FIXTURES.xiangqi.plies[1].display;
  assert.ok((await page.locator('.status.replaying').innerText()).startsWith(`Move 2 of 3: ${d2}.`), 'the status names the move shown');
  assert.deepEqual(Object.keys(await page.locator('.board .piece').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-square'), 1])))).sort(), Object.keys(FIXTURES.xiangqi.plies[1].position.pieces).sort());
  await page.keyboard.press('Home');
  await page.locator('.status.replaying', { hasText: 'Start position.' }).waitFor();
  await page.keyboard.press('ArrowRight');
  await page.locator('.moves .mv.current[data-ply="1"]').waitFor();
  assert.ok(await page.evaluate(() => window.cannonade.game.board.animations) >= 4, 'stepping forward animates the move');
  await shot(page, 'feel-replay');
  await page.keyboard.press('End');
  await page.locator('.status.replaying').waitFor({ state: 'detached' }).catch(() => {});
  assert.equal(await page.locator('.status.replaying').count(), 0, 'back to the game');
  await page.close();
});

test('typing: a move by its WXF text, anywhere on the page, plays it', async () => {
  const log = [];
  const page = await open('xiangqi', 'both', log);
  const p = FIXTURES.xiangqi.plies[0];
  // Typing a letter with no field focused goes to the move box.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.type(p.display.toLowerCase());
  assert.equal(await page.inputValue('#move-entry'), p.display.toLowerCase());
  await page.keyboard.press('Enter');
  await page.locator('.moves .mv[data-ply="1"]').waitFor();
  assert.deepEqual(log.filter((m) => m.t === 'move').map((m) => m.mv), [p.mv]);
  await page.close();
});

test('legend: pointing at a piece names it; the legend lists every piece with its picture', async () => {
  const page = await open('commander');
  const [x, y] = await centre(page, 'g1');
  await page.mouse.move(x, y);
  await page.locator('.piece-tip:not([hidden])', { hasText: 'red commander' }).waitFor();
  await page.locator('.legend summary').click();
  const symbols = new Set(FIXTURES.commander.geometry.pieces.map((p) => p.symbol));
  assert.equal(await page.locator('.legend li').count(), symbols.size);
  assert.equal(await page.locator('.legend li svg.piece-icon').count(), 2 * symbols.size, 'both sides\' pictures');
  await shot(page, 'feel-legend');
  await page.close();
  // A long press on a phone does the same.
  const phone = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const tp = await phone.newPage();
  await tp.routeWebSocket(/\/ws/, standIn('commander', 'both', []));
  await tp.goto(`${env.site.url}/#/game/fx-commander`);
  await tp.locator('.board .piece').first().waitFor();
  const [px, py] = await centre(tp, 'b2');
  const cdp = await phone.newCDPSession(tp);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: px, y: py }] });
  await tp.locator('.piece-tip:not([hidden])', { hasText: 'red navy' }).waitFor({ timeout: 3000 });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await phone.close();
});

test('commander: a stack deploys step by step, its pieces picked by their pictures', async () => {
  const fx = FIXTURES.commander;
  const log = [];
  const page = await open('commander', 'both', log);
  for (let i = 0; i < 4; i++) {
    const p = fx.plies[i];
    await clickMove(page, p.legal.find((l) => l.mv === p.mv));
    await page.locator(`.moves .mv[data-ply="${i + 1}"]`).waitFor();
  }
  const p = fx.plies[4];
  const move = p.legal.find((l) => l.mv === p.mv);
  assert.ok(move.units?.length, `the recorded move ${move.mv} is a deploy`);
  await clickSquare(page, move.squares[0]);
  // The board asks which pieces move, with their pictures.
  const groups = page.locator('.picker:not([hidden]) button[data-group]');
  assert.ok(await groups.count() >= 2, 'a choice of pieces');
  assert.equal(await page.locator('.picker:not([hidden]) button[data-group] svg.piece-icon').count(), await groups.count());
  await shot(page, 'feel-deploy-pieces');
  await page.locator(`.picker button[data-group="${move.units[0]}"]`).click();
  // Only that group's points are offered now.
  const dests = await page.locator('.board .dest').evaluateAll((els) => els.map((e) => e.getAttribute('data-dest')).sort());
  const expected = [...new Set(p.legal.filter((l) => l.squares[0] === move.squares[0] && l.units?.[0] === move.units[0]).map((l) => l.squares[1]))].sort();
  assert.deepEqual(dests, expected);
  await clickSquare(page, move.squares[1]);
  const picker = page.locator('.picker:not([hidden])');
  if (await picker.count()) await clickMove(page, move);
  await page.locator('.moves .mv[data-ply="5"]').waitFor();
  assert.equal(log.filter((m) => m.t === 'move').at(-1).mv, move.mv);
  assert.equal(await page.locator('.moves .mv[data-ply="5"]').innerText(), move.display, 'the list shows the readable text');
  await page.close();
});
