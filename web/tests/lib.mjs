// Shared test helpers: Debian's Chromium driven by playwright-core, a static server for
// web/static (for the tests that stand in for the server), the real `cannonade serve`, and
// screenshots saved under target/web-artifacts for people to look at.

import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import { dirname, join, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(WEB, '..');
export const ARTIFACTS = process.env.WEB_ARTIFACTS ?? join(ROOT, 'target', 'web-artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** Recorded lines of play per game (crates/webui/examples/fixtures.rs). */
export const FIXTURES = JSON.parse(readFileSync(join(WEB, 'tests', 'fixtures.json'), 'utf8'));

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** @param {Record<string, string>} [env] the browser's environment (default: this process's) */
export function launch(env) {
  return chromium.launch({
    executablePath: CHROMIUM,
    env,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** Serves web/static on a free loopback port; the page's own routes get index.html. */
export async function staticServer() {
  const dir = join(WEB, 'static');
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let path = normalize(decodeURIComponent(url.pathname));
    if (path === '/' || path.startsWith('/invite/')) path = '/index.html';
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(undefined)));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok(undefined))) };
}

/**
 * Starts the real server (`cannonade serve`) on a free port with a fresh SQLite store, or
 * returns null when the binary has no `serve` command yet. `again` restarts a server that
 * was closed: the same port and database file, as an operator's restart would.
 * @param {{port: number, db: string}} [again]
 */
export async function realServer(again) {
  const bin = process.env.CANNONADE_BIN ?? join(ROOT, 'target', 'debug', 'cannonade');
  if (!existsSync(bin)) return null;
  const port = again?.port ?? 20000 + Math.floor(Math.random() * 20000);
  const db = again?.db ?? join(ARTIFACTS, `e2e-${port}.db`);
  // --ai-instant: the engine answers without a person's pause, and --review-depth 1 reviews a
  // finished game at once, so the tests stay quick.
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--db', `sqlite://${db}`, '--grace', '5', '--ai-instant', '--review-depth', '1'];
  // The page is embedded in the binary; CANNONADE_WEB_DIR serves it from disk instead.
  if (process.env.CANNONADE_WEB_DIR) args.push('--web', process.env.CANNONADE_WEB_DIR);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`cannonade serve exited: ${log}`);
    try {
      const r = await fetch(url + '/');
      if (r.ok) {
        return {
          url, port, db, log: () => log,
          close: () => child.kill(),
          /** Stops the server and waits for its process to end. */
          stop: () => new Promise((ok) => {
            if (child.exitCode !== null) return ok(undefined);
            child.once('exit', () => ok(undefined));
            child.kill();
          }),
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  child.kill();
  throw new Error(`cannonade serve did not answer: ${log}`);
}

/** @param {import('playwright-core').Page} page @param {string} name */
export async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Clicks a square of the board by its name. */
export async function clickSquare(page, sq) {
  await page.locator(`.board rect.hit[data-square="${sq}"]`).click();
}

/**
 * Plays a listed move as a person would: clicks its squares in order and, where the board
 * asks, the pieces of each step (a Commander stack) or the move among several on the same
 * squares.
 */
export async function clickMove(page, move) {
  const group = (unit) => page.locator(`.picker:not([hidden]) button[data-group="${unit}"]`);
  await clickSquare(page, move.squares[0]);
  for (let i = 1; i < move.squares.length; i++) {
    const unit = move.units?.[i - 1];
    // "Which pieces move?": picked before their square when the board asks first.
    if (unit && (await group(unit).count())) await group(unit).click();
    await clickSquare(page, move.squares[i]);
    // "Which pieces go there?": picked after the square when several end on it.
    if (unit && (await group(unit).count())) await group(unit).click();
  }
  const choice = page.locator(`.picker:not([hidden]) button[data-mv="${move.mv}"]`);
  if (await choice.count()) await choice.click();
}

/**
 * A stand-in server for one game: a snapshot on `watch`, then each expected move answered
 * with the recorded event. `role` is what the page is in the game.
 */
export function standIn(kind, role, log, fixtures = FIXTURES) {
  const fx = fixtures[kind];
  const id = `fx-${kind}`;
  let ply = 0;
  const legalAt = (i) => (i < fx.plies.length ? fx.plies[i].legal : fx.legal_after);
  return (ws) => {
    ws.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u1', name: 'tester', account: false }, games: Object.keys(fixtures) }));
    ws.onMessage((text) => {
      const m = JSON.parse(String(text));
      log.push(m);
      if (m.t === 'watch') {
        ws.send(JSON.stringify({
          t: 'snapshot', game: id, v: 0, kind, options: '', rated: false, geometry: fx.geometry,
          start: fx.start, position: fx.start, moves: [],
          players: [{ name: 'Alice', rating: null, ai: false, online: true }, { name: 'Bob', rating: null, ai: false, online: true }],
          you: role, time_control: { initial_ms: 300000, increment_ms: 3000 },
          clock: { remaining_ms: [300000, 300000], running: 'first' },
          legal: legalAt(0), offers: [], result: null, commitment: null, seed: null, spectators: 2,
          chat: [], crowd: role === 'spectator' ? { first: { agreed: 0, of: 0 }, second: { agreed: 0, of: 0 } } : null, rematch: null,
        }));
      }
      if (m.t === 'move') {
        const p = fx.plies[ply];
        assert.equal(m.ply, ply, 'the move names the current ply');
        const listed = p.legal.some((l) => l.mv === m.mv);
        assert.ok(listed, `the client sent a listed move (${m.mv})`);
        // The stand-in plays the recorded move whatever was picked among equals (a flip's
        // result is the server's anyway).
        ws.send(JSON.stringify({
          t: 'event', game: id, v: ply + 1,
          event: { e: 'moved', ply, mv: p.mv, display: p.display, seat: p.seat, position: p.position, clock: { remaining_ms: [299000, 300000], running: ply % 2 ? 'first' : 'second' } },
          legal: legalAt(ply + 1),
        }));
        ply += 1;
      }
    });
  };
}


/**
 * The browser and the static site of a test file that stands in for the server: started
 * before its tests, closed after them. Read `env.browser` and `env.site` inside the tests.
 */
export function standInSite() {
  const env = /** @type {{browser: any, site: any}} */ ({ browser: null, site: null });
  before(async () => {
    env.browser = await launch();
    env.site = await staticServer();
  });
  after(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

/**
 * The real server and a browser for a test file: the server started now (before the tests
 * are declared, so a missing binary skips them, and fails in CI), the browser before the
 * tests, both closed after them. `skip()` is the tests' skip reason; `newPage` a page in a
 * fresh browser context (its own cookies), logging the page's errors; `restart()` restarts
 * the server on the same port and database.
 */
export async function realSite() {
  const server = await realServer();
  if (!server && process.env.CI) throw new Error('CI needs target/debug/cannonade for the end-to-end tests');
  /** @type {import('playwright-core').Browser|null} */
  let browser = null;
  before(async () => {
    if (server) browser = await launch();
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  const skip = () => (server ? false : 'no cannonade binary with `serve` (build it with cargo first)');
  const newPage = async (viewport = { width: 1100, height: 900 }) => {
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    return page;
  };
  /** Stops the server and starts it again on its port and database file, as an operator would. */
  const restart = async () => {
    if (!server) throw new Error('no server');
    await server.stop();
    Object.assign(server, await realServer({ port: server.port, db: server.db }));
  };
  return { server, skip, newPage, restart };
}

/** The page's user once its socket is open. @param {import('playwright-core').Page} page */
export async function pageUser(page) {
  await page.waitForFunction(() => window.cannonade?.net?.status === 'open' && !!window.cannonade.net.user);
  return page.evaluate(() => window.cannonade.net.user);
}

/**
 * Registers `name` (password "correct horse") through the account panel of `url`'s page.
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @param {string} name
 */
export async function registerIn(page, url, name) {
  await page.goto(url + '/');
  await pageUser(page);
  await page.locator('#account-btn').click();
  await page.locator('#account-panel [data-tab="register"]').click();
  await page.fill('#account-name', name);
  await page.fill('#account-password', 'correct horse');
  await page.locator('#account-form button[type="submit"]').click();
  await page.locator('#account-btn', { hasText: new RegExp(`^${name}$`) }).waitFor();
  // Signing in ends the anonymous session without telling the player it ended.
  const toasts = await page.locator('.toast').allTextContents();
  if (toasts.some((text) => text.includes('ended'))) throw new Error(`registering showed ${toasts}`);
}
