// The analysis board (issue 25, docs/analysis.md): a position moved freely with the
// engine's best lines updating live, opened empty or from a finished game; Banqi flips
// decided at the board; a bad line in the address named; leaving the board stops the
// engine. Against the real `cannonade serve`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot, clickMove, clickSquare, pageUser } from './lib.mjs';

const { server, skip, newPage } = await realSite();

/** Waits for the engine's lines of the board's current analysis, at `depth` or deeper. */
async function lines(page, depth = 1) {
  await page.waitForFunction((d) => {
    const a = window.cannonade.analysis;
    return a?.engine?.id === a?.seq && (a.engine.lines.length ?? 0) > 0 && a.engine.depth >= d;
  }, depth, { timeout: 20000 });
  return page.evaluate(() => window.cannonade.analysis.engine);
}

test('the analysis board answers a move with a new evaluation within a second', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/#/analysis/xiangqi`);
  await pageUser(page);
  const first = await lines(page, 4);
  assert.equal(first.lines.length, 3, 'three lines by default');
  assert.equal(await page.locator('.analysis-lines li').count(), 3);
  assert.match(await page.locator('.analysis-eval').textContent(), /Red/);
  // The best move is drawn as an arrow.
  assert.equal(await page.locator('.board .arrows .arrow').count(), 1);
  await shot(page, 'analysis-xiangqi');
  // A move on the board: the engine's lines for the new position within a second.
  const legal = await page.evaluate(() => window.cannonade.analysis.answer.legal.find((l) => l.mv === 'h2e2'));
  const seqBefore = await page.evaluate(() => window.cannonade.analysis.seq);
  const started = Date.now();
  await clickMove(page, legal);
  await page.waitForFunction((before) => {
    const a = window.cannonade.analysis;
    return a.seq > before && a.engine?.id === a.seq && a.engine.lines.length > 0;
  }, seqBefore, { timeout: 5000 });
  const took = Date.now() - started;
  assert.ok(took < 1000, `the new evaluation came after ${took} ms`);
  console.log(`a move to the new position's lines: ${took} ms`);
  const after = await page.evaluate(() => window.cannonade.analysis);
  assert.deepEqual(after.moves, ['h2e2']);
  assert.match(await page.url(), /#\/analysis\/xiangqi\?moves=h2e2$/);
  assert.equal(await page.locator('.moves .mv.current').textContent(), 'C2=5');
  // A click on a line plays its first move (the lines change as the search deepens: the
  // move played is one of Black's legal moves, and the engine listed it).
  await lines(page);
  const legalHere = await page.evaluate(() => window.cannonade.analysis.answer.legal.map((l) => l.mv));
  const listed = await page.locator('.analysis-lines li button').first().getAttribute('data-mv');
  await page.locator('.analysis-lines li button').first().click();
  await page.waitForFunction(() => window.cannonade.analysis.moves.length === 2);
  const played = await page.evaluate(() => window.cannonade.analysis.moves[1]);
  assert.ok(legalHere.includes(played) && listed, `${played} is a legal reply the engine listed`);
  // Back to the start with the keyboard: the line is kept, the start analysed again.
  await page.keyboard.press('Home');
  await page.waitForFunction(() => window.cannonade.analysis.ply === 0 && window.cannonade.analysis.moves.length === 2);
  await lines(page);
  // Leaving the board stops the engine: nothing more comes for it.
  await page.evaluate(() => {
    window.analysisFrames = 0;
    window.cannonade.net.on((m) => {
      if (m.t === 'analysis') window.analysisFrames++;
    });
  });
  await page.goto(`${server.url}/#/`);
  await page.waitForTimeout(800);
  await page.evaluate(() => (window.analysisFrames = 0));
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => window.analysisFrames), 0, 'the engine went on after the board closed');
});

test('a finished game opens on the analysis board at the shown move', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(server.url + '/');
  await pageUser(page);
  const pgn = '[Variant "xiangqi"]\n[Result "1-0"]\n\n1. i3i4 a9a8 2. i4i5 a8h8 3. h2h8 1-0\n';
  const id = await page.evaluate(async (body) => {
    const r = await fetch('/api/import', { method: 'POST', body, credentials: 'same-origin' });
    return (await r.json()).games[0];
  }, pgn);
  await page.goto(`${server.url}/#/game/${id}`);
  const open = page.locator('.end a.analyse');
  await open.waitFor();
  await open.click();
  await page.waitForFunction(() => window.cannonade.analysis?.answer);
  const board = await page.evaluate(() => ({ moves: window.cannonade.analysis.moves, ply: window.cannonade.analysis.ply }));
  assert.deepEqual(board, { moves: ['i3i4', 'a9a8', 'i4i5', 'a8h8', 'h2h8'], ply: 5 });
  // The last position is lost for Black, not over: the engine searches it.
  await lines(page);
  assert.equal(await page.locator('.moves .mv').count(), 5);
});

test('a Banqi flip is decided at the board, and the values are expectations', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/#/analysis/banqi`);
  await pageUser(page);
  await lines(page);
  assert.equal(await page.locator('.engine .review-note').isVisible(), true);
  // A flip: the board asks which piece comes up.
  await clickSquare(page, 'a1');
  const choices = page.locator('.picker:not([hidden]) button[data-mv^="a1="]');
  await choices.first().waitFor();
  assert.equal(await choices.count(), 14, 'one choice per kind of piece in each colour');
  await page.locator('.picker:not([hidden]) button[data-mv="a1=C"]').click();
  await page.waitForFunction(() => window.cannonade.analysis.answer?.position.pieces.a1 === 'C');
  await lines(page);
  await shot(page, 'analysis-banqi');
});

test('a line that does not replay is named, and other games are one choice away', { skip: skip(), timeout: 60000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/#/analysis/xiangqi?moves=h2e2+h2e2`);
  await pageUser(page);
  const problem = page.locator('.analysis-problem');
  await problem.waitFor();
  assert.match(await problem.textContent(), /move 2 \('h2e2'\): invalid move/);
  await page.selectOption('.analysis .controls select', 'commander');
  await page.waitForFunction(() => window.cannonade.analysis?.kind === 'commander' && window.cannonade.analysis.answer);
  await lines(page);
  await shot(page, 'analysis-commander');
});

test('the board editor refuses an illegal setup with a message, and a legal one starts a game', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(`${server.url}/#/editor/xiangqi`);
  await pageUser(page);
  const verdict = page.locator('.editor-verdict');
  await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
  // Take Red's general away: the rules name what is wrong.
  await page.locator('.palette [data-brush=""]').click();
  await clickSquare(page, 'e0');
  await page.locator('.editor-verdict.bad').waitFor();
  assert.match(await verdict.textContent(), /invalid position: .*general/i);
  assert.equal(await page.locator('[data-action="play-ai"]').isDisabled(), true);
  await shot(page, 'editor-illegal');
  // Put it back, and take Black's chariots away: a legal position of its own.
  await page.locator('.palette [data-brush="K"]').click();
  await clickSquare(page, 'e0');
  await page.locator('.palette [data-brush=""]').click();
  await clickSquare(page, 'a9');
  await clickSquare(page, 'i9');
  await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
  const fen = await page.inputValue('#editor-fen');
  assert.equal(fen, '1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  // The analysis board opens on it.
  await page.locator('[data-action="analyse"]').click();
  await page.waitForFunction((f) => window.cannonade.analysis?.answer?.position.fen === f, fen);
  await lines(page);
  // Back in the editor, Black to move, and a game against the engine from there.
  await page.locator('[data-action="edit"]').click();
  await page.locator('.editor-turn [data-turn="b"]').click();
  await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
  await shot(page, 'editor-legal');
  await page.locator('[data-action="play-ai"]').click();
  await page.waitForFunction(() => window.cannonade.game?.snap);
  const game = await page.evaluate(() => ({ start: window.cannonade.game.snap.start.fen, you: window.cannonade.game.snap.you }));
  assert.deepEqual(game, { start: fen.replace(' w ', ' b '), you: 'second' });
});

test('every game\'s editor writes its board back as the rules read it', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  for (const kind of ['xiangqi', 'banqi', 'chessbattle', 'commander']) {
    await page.goto(`${server.url}/#/editor/${kind}`);
    await pageUser(page);
    await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
    const start = await page.inputValue('#editor-fen');
    // A piece taken away and put back: the text is the start's again, and still legal.
    const [sq, piece] = await page.evaluate(async (k) => {
      const starts = await (await fetch('/api/starts')).json();
      return Object.entries(starts[k].pieces).find(([, p]) => /^[A-Za-z]$/.test(p));
    }, kind);
    await page.locator('.palette [data-brush=""]').click();
    await clickSquare(page, sq);
    assert.notEqual(await page.inputValue('#editor-fen'), start, kind);
    await page.locator(`.palette [data-brush="${piece}"]`).click();
    await clickSquare(page, sq);
    assert.equal(await page.inputValue('#editor-fen'), start, kind);
    await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
    if (kind === 'banqi') {
      // A face-up cannon where a face-down piece lay: the pool loses one cannon by itself.
      await page.locator('.palette [data-brush="C"]').click();
      await clickSquare(page, 'a1');
      await page.locator('.editor-turn [data-turn="b"]').click();
      const text = await page.inputValue('#editor-fen');
      assert.match(text, / b K1A2B2R2N2C1P5k1a2b2r2n2c2p5 /, text);
      await page.waitForFunction(() => document.querySelector('.editor-verdict')?.textContent === 'The position is legal.');
    }
    // Banqi games start face down from a fair deal: its set-ups are for analysis only.
    assert.equal(await page.locator('[data-action="play-ai"]').count(), kind === 'banqi' ? 0 : 1, kind);
    await shot(page, `editor-${kind}`);
  }
});
