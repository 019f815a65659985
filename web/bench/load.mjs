// Page weight and time to a playable board, for two builds of the server measured in the
// same run (alternating, so both see the same machine load):
//
//   node web/bench/load.mjs BEFORE_BINARY AFTER_BINARY [samples]
//
// Each sample opens a hot-seat Xiangqi game's page in a fresh browser context (empty cache)
// and reads the page's `board-interactive` mark (navigation start to the first moment the
// board offers a legal move) and the bytes transferred (navigation + every resource; the
// websocket's frames are not counted). A second page of each build loads all four games'
// boards, so every piece set is drawn; the bytes are the page's files, shared by all games.

import { spawn } from 'node:child_process';
import { launch } from '../tests/lib.mjs';

const [before, after, n = '9'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node web/bench/load.mjs BEFORE_BINARY AFTER_BINARY [samples]');
  process.exit(2);
}

async function serve(bin) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', `sqlite:///tmp/cannonade-load-${port}.db`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url + '/')).ok) return { url, close: () => child.kill() };
    } catch {
      // not yet listening
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${bin} did not start`);
}

const browser = await launch();

/** Starts a hot-seat Xiangqi game on a server and returns its id. */
async function game(url) {
  const page = await browser.newPage();
  await page.goto(url + '/');
  await page.locator('.game-pick [data-game="xiangqi"]').click();
  await page.selectOption('#clock', '0');
  await page.locator('[data-mode="hotseat"]').click();
  await page.waitForFunction(() => !!window.cannonade.game?.snap);
  const id = await page.evaluate(() => window.cannonade.game.snap.game);
  await page.close();
  return id;
}

async function sample(url, id) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/#/game/${id}`);
  await page.locator('.board rect.hit[tabindex="0"]').first().waitFor();
  const m = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    return {
      ms: performance.getEntriesByName('board-interactive')[0].startTime,
      bytes: nav.transferSize + res.reduce((a, r) => a + r.transferSize, 0),
      files: res.length + 1,
    };
  });
  await context.close();
  return m;
}

const servers = { before: await serve(before), after: await serve(after) };
const ids = { before: await game(servers.before.url), after: await game(servers.after.url) };
const out = { before: [], after: [] };
for (let i = 0; i < Number(n); i++)
  for (const k of i % 2 ? ['after', 'before'] : ['before', 'after']) out[k].push(await sample(servers[k].url, ids[k]));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const report = {};
for (const k of ['before', 'after']) {
  report[k] = { medianMs: Math.round(median(out[k].map((s) => s.ms))), samplesMs: out[k].map((s) => Math.round(s.ms)), bytes: out[k][0].bytes, files: out[k][0].files };
}
report.ratio = { time: +(report.after.medianMs / report.before.medianMs).toFixed(2), bytes: +(report.after.bytes / report.before.bytes).toFixed(2) };
console.log(JSON.stringify(report, null, 2));
servers.before.close();
servers.after.close();
await browser.close();
