// The page around the board, with stand-ins for the server: every piece drawn with no CJK
// font, the four languages (chosen from the browser, switched and remembered, every visible
// text translated), the phone layouts, the rules pages, and the smaller bugs of issue #27,
// each in a test of its own.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { standInSite, launch, shot, standIn, FIXTURES, WEB, ARTIFACTS } from './lib.mjs';

const env = standInSite();

const GAMES = ['xiangqi', 'banqi', 'chessbattle', 'commander'];
const LANGS = ['en', 'zh-Hans', 'zh-Hant', 'vi'];
const catalogue = async (part, lang) => (await import(join(WEB, 'static', 'i18n', `${part}${lang}.js`))).default;

/** Answers /api/geometry and /api/starts as the server does, from the recorded games. */
async function serverApis(page) {
  await page.route(/\/api\/geometry$/, (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(Object.fromEntries(GAMES.map((g) => [g, FIXTURES[g].geometry]))) }));
  await page.route(/\/api\/starts$/, (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(Object.fromEntries(GAMES.map((g) => [g, FIXTURES[g].start]))) }));
}

/** A stand-in server the test drives: it answers `watch` with `snap` and sends what it is told. */
function driven(snap) {
  const log = [];
  let socket;
  const handler = (ws) => {
    socket = ws;
    ws.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u1', name: 'tester', account: false }, games: GAMES }));
    ws.onMessage((text) => {
      const m = JSON.parse(String(text));
      log.push(m);
      if (m.t === 'watch') ws.send(JSON.stringify({ t: 'snapshot', ...snap }));
    });
  };
  return { handler, log, send: (m) => socket.send(JSON.stringify(m)) };
}

function snapshot(kind, you, extra = {}) {
  const fx = FIXTURES[kind];
  return {
    game: `fx-${kind}`, v: 0, kind, options: '', rated: false, geometry: fx.geometry, start: fx.start, position: fx.start, moves: [],
    players: [{ name: 'Alice', rating: null, ai: false, online: true }, { name: 'Bob', rating: null, ai: false, online: true }],
    you, time_control: { initial_ms: 300000, increment_ms: 3000 }, clock: { remaining_ms: [300000, 300000], running: 'first' },
    legal: fx.plies[0].legal, offers: [], result: null, commitment: null, seed: null, spectators: 1, chat: [],
    crowd: you === 'spectator' ? { first: { agreed: 0, of: 0 }, second: { agreed: 0, of: 0 } } : null, rematch: null, ...extra,
  };
}

/** A position with every piece of the game's legend on it, one per square. */
function everyPiece(kind) {
  const g = FIXTURES[kind].geometry;
  const squares = [];
  for (const r of g.rank_labels) for (const f of g.file_labels) if (!g.missing.includes(f + r)) squares.push(f + r);
  return Object.fromEntries(g.pieces.map((p, i) => [squares[i * 2 + (i % 2)], p.letter]));
}

test('every piece of every game is drawn as paths: no text, no font (no CJK font reachable)', async () => {
  // A browser of its own whose fontconfig rejects every font with Chinese: whatever fonts
  // the machine has, the pieces must be drawn without one.
  const conf = join(ARTIFACTS, 'no-cjk-fonts.conf');
  writeFileSync(conf, `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><pattern><patelt name="lang"><string>zh</string></patelt></pattern></rejectfont></selectfont>
</fontconfig>
`);
  const noCjk = { ...process.env, FONTCONFIG_FILE: conf };
  try {
    assert.equal(execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8', env: noCjk }).trim(), '', 'no Chinese font reachable');
  } catch (e) {
    if (e.code !== 'ENOENT') throw e; // no fontconfig tools: the drawing checks below still hold
  }
  const bare = await launch(noCjk);
  for (const kind of GAMES) {
    for (const [set, theme] of [['traditional', 'wood'], ['figures', 'slate']]) {
      const fake = structuredClone(FIXTURES);
      fake[kind].start = { ...fake[kind].start, pieces: everyPiece(kind), check: null };
      const page = await bare.newPage({ viewport: { width: 1100, height: 900 } });
      await page.addInitScript(([s, th]) => localStorage.setItem('cannonade_prefs', JSON.stringify({ pieceSet: s, theme: th })), [set, theme]);
      await page.routeWebSocket(/\/ws/, standIn(kind, 'spectator', [], fake));
      await page.goto(`${env.site.url}/#/game/fx-${kind}`);
      await page.locator('.board .piece').first().waitFor();
      const drawn = await page.locator('.board .piece').evaluateAll((els) => els.map((e) => {
        const art = e.querySelector('.art');
        const box = (art ?? e).getBBox();
        return { sq: e.getAttribute('data-square'), text: e.querySelectorAll('text').length, paths: e.querySelectorAll('path').length, w: box.width, h: box.height, hidden: !art };
      }));
      assert.equal(drawn.length, FIXTURES[kind].geometry.pieces.length, `${kind}: every legend piece`);
      for (const d of drawn) {
        assert.equal(d.text, 0, `${kind} ${d.sq}: no text`);
        if (d.hidden) continue; // a face-down piece is a plain disc
        assert.ok(d.paths >= 1 && d.w > 12 && d.h > 12, `${kind} ${d.sq} (${set}): a picture ${d.w}×${d.h}`);
      }
      await shot(page, `pieces-${kind}-${set}-${theme}`);
      await page.close();
    }
  }
  await bare.close();
});

/** The visible texts of the page: text nodes in shown elements, and placeholders. */
function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim();
      if (!text || !el || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
      out.push(text);
    }
    for (const i of document.querySelectorAll('input[placeholder]')) out.push(i.getAttribute('placeholder'));
    return out;
  });
}

for (const lang of LANGS.slice(1)) {
  test(`${lang}: chosen from the browser's languages, and no English text shows`, async () => {
    const locale = { 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW', vi: 'vi-VN' }[lang];
    const en = { ...(await catalogue('', 'en')), ...(await catalogue('rules-', 'en')) };
    const mine = { ...(await catalogue('', lang)), ...(await catalogue('rules-', lang)) };
    // English texts that this language writes otherwise (words shared by both, like a
    // piece's letter or a game's own name, may show).
    const english = new Set(Object.keys(en).filter((k) => !/\{|</.test(en[k]) && en[k] !== mine[k]).map((k) => en[k].trim()));
    const context = await env.browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await serverApis(page);
    const check = async (where) => {
      const shown = await visibleTexts(page);
      const left = shown.filter((s) => english.has(s));
      assert.deepEqual(left, [], `${lang} ${where}: English left`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    };
    await page.routeWebSocket(/\/ws/, standIn('xiangqi', 'both', []));
    await page.goto(`${env.site.url}/#/`);
    await page.locator('.game-pick button').first().waitFor();
    await check('home');
    await shot(page, `lang-${lang}-home`);
    for (const kind of GAMES) {
      await page.routeWebSocket(/\/ws/, standIn(kind, 'both', []));
      await page.goto(`${env.site.url}/#/game/fx-${kind}`);
      await page.reload();
      await page.locator('.board .piece').first().waitFor();
      await page.locator('.legend summary').click();
      await check(`game ${kind}`);
      await shot(page, `lang-${lang}-game-${kind}`);
      await page.goto(`${env.site.url}/rules/${kind}.html`);
      await page.locator('figure .board .piece').first().waitFor();
      await page.locator('table tr[data-symbol]').first().waitFor();
      await check(`rules ${kind}`);
      await shot(page, `lang-${lang}-rules-${kind}`);
    }
    await context.close();
  });
}

test('the language switcher changes every text and is remembered', async () => {
  const context = await env.browser.newContext({ locale: 'en-GB', viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.routeWebSocket(/\/ws/, standIn('commander', 'both', []));
  await page.goto(`${env.site.url}/#/game/fx-commander`);
  await page.locator('.board .piece').first().waitFor();
  assert.equal(await page.locator('[data-action="flip"]').innerText(), 'Flip board');
  await Promise.all([page.waitForNavigation(), page.selectOption('#lang', 'vi')]);
  await page.locator('.board .piece').first().waitFor();
  assert.equal(await page.locator('[data-action="flip"]').innerText(), 'Xoay bàn cờ');
  assert.equal(await page.locator('.info h2').innerText(), 'Cờ Tư Lệnh');
  const label = await page.locator('.board rect.hit[data-square="g1"]').getAttribute('aria-label');
  assert.equal(label, 'g1, Tư lệnh đỏ');
  await page.goto(`${env.site.url}/#/`);
  await page.reload();
  await page.locator('.game-pick button').first().waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'vi', 'remembered');
  await context.close();
});

test('phone, portrait: the whole board on a 390×844 screen; landscape: the board beside the moves', async () => {
  for (const kind of GAMES) {
    const page = await env.browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true });
    await page.routeWebSocket(/\/ws/, standIn(kind, 'first', []));
    await page.goto(`${env.site.url}/#/game/fx-${kind}`);
    await page.locator('.board .piece').first().waitFor();
    const box = await page.locator('svg.board').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844, `${kind}: the board on the screen: ${JSON.stringify(box)}`);
    assert.ok(box.width >= 370, `${kind}: the board uses the width (${box.width})`);
    await shot(page, `phone-${kind}`);
    await page.setViewportSize({ width: 844, height: 390 });
    await page.waitForTimeout(100);
    const b2 = await page.locator('svg.board').boundingBox();
    const moves = await page.locator('.side-col').boundingBox();
    assert.ok(b2.y + b2.height <= 390 + 1, `${kind}: the board fits the landscape height: ${JSON.stringify(b2)}`);
    assert.ok(b2.x + b2.width <= moves.x, `${kind}: the moves are beside the board`);
    await page.screenshot({ path: join(WEB, '..', 'target', 'web-artifacts', `landscape-${kind}.png`) });
    await page.close();
  }
});

test('a click while the page is still connecting is sent once the socket opens, not refused', async () => {
  const log = [];
  /** @type {any} */
  let socket;
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await serverApis(page);
  // The server's welcome comes only when the test says: until then the page is connecting.
  await page.routeWebSocket(/\/ws/, (ws) => {
    socket = ws;
    ws.onMessage((text) => log.push(JSON.parse(String(text))));
  });
  await page.goto(`${env.site.url}/#/`);
  await page.locator('[data-mode="hotseat"]').click();
  await page.waitForTimeout(300);
  assert.equal(await page.locator('.toast').count(), 0, 'no "not connected" for a click a moment early');
  socket.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u1', name: 'tester', account: false }, games: GAMES }));
  for (let i = 0; i < 50 && !log.some((m) => m.t === 'hotseat'); i++) await page.waitForTimeout(100);
  assert.equal(log.filter((m) => m.t === 'hotseat').length, 1, 'the click was sent once, after the welcome');
  await page.close();
});

test('hot-seat: no "(offline)" beside the players, and an Undo button', async () => {
  const snap = snapshot('xiangqi', 'both', { players: [{ name: 'Alice', rating: null, ai: false, online: false }, { name: 'Alice', rating: null, ai: false, online: false }] });
  const s = driven(snap);
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, s.handler);
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.board .piece').first().waitFor();
  assert.equal(await page.locator('.player .away').count(), 0);
  s.send({ t: 'event', game: 'fx-xiangqi', v: 1, event: { e: 'moved', ply: 0, mv: FIXTURES.xiangqi.plies[0].mv, display: FIXTURES.xiangqi.plies[0].display, seat: 'first', position: FIXTURES.xiangqi.plies[0].position, clock: snap.clock }, legal: FIXTURES.xiangqi.plies[1].legal });
  await page.locator('[data-action="undo"]:not([disabled])').click();
  assert.deepEqual(s.log.filter((m) => m.t === 'offer').map((m) => m.kind), ['takeback']);
  await page.close();
});

test('spectator: the proposal box goes when the game ends, and a takeback clears the reveal', async () => {
  const fx = FIXTURES.xiangqi;
  const s = driven(snapshot('xiangqi', 'spectator'));
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, s.handler);
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.spectate:not([hidden])').waitFor();
  const clock = { remaining_ms: [300000, 300000], running: 'second' };
  s.send({ t: 'event', game: 'fx-xiangqi', v: 1, event: { e: 'moved', ply: 0, mv: fx.plies[0].mv, display: fx.plies[0].display, seat: 'first', position: fx.plies[0].position, clock }, legal: fx.plies[1].legal,
    reveal: { ply: 0, played: fx.plies[0].mv, counts: [{ mv: fx.plies[0].mv, n: 2 }], matched: 2, crowd: { first: { agreed: 1, of: 1 }, second: { agreed: 0, of: 0 } } } });
  await page.locator('.spectate .reveal').waitFor();
  assert.match(await page.locator('.spectate .reveal').innerText(), new RegExp(fx.plies[0].display.replace(/[+=]/g, '\\$&')), 'the reveal names the move as the list writes it');
  s.send({ t: 'event', game: 'fx-xiangqi', v: 2, event: { e: 'taken_back', moves: 1, position: fx.start, clock }, legal: fx.plies[0].legal });
  await page.locator('.moves .mv').first().waitFor({ state: 'detached' });
  assert.equal(await page.locator('.spectate .reveal').count(), 0, 'the reveal of a move taken back is gone');
  s.send({ t: 'event', game: 'fx-xiangqi', v: 3, event: { e: 'ended', result: { winner: 'first', reason: 'resignation' }, clock, crowd: { first: { agreed: 1, of: 1 }, second: { agreed: 0, of: 0 } } } });
  await page.locator('.end:not([hidden])').waitFor();
  assert.equal(await page.locator('.spectate:not([hidden])').count(), 0, 'no proposal box after the end');
  await page.close();
  // A finished game opened later: no proposal box either.
  const done = driven(snapshot('xiangqi', 'spectator', { result: { winner: 'second', reason: 'time' }, legal: null }));
  const p2 = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await p2.routeWebSocket(/\/ws/, done.handler);
  await p2.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await p2.locator('.end:not([hidden])').waitFor();
  assert.equal(await p2.locator('.spectate:not([hidden])').count(), 0);
  await p2.close();
});

test('an opponent who left: the claim countdown ticks, then the claim is offered', async () => {
  const s = driven(snapshot('chessbattle', 'first'));
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, s.handler);
  await page.goto(`${env.site.url}/#/game/fx-chessbattle`);
  await page.locator('.board .piece').first().waitFor();
  s.send({ t: 'presence', game: 'fx-chessbattle', seat: 'second', online: false, claim_in_ms: 2500 });
  await page.locator('.player .away', { hasText: 'in 3 s' }).waitFor();
  await page.locator('.player .away', { hasText: 'in 2 s' }).waitFor();
  await page.locator('[data-action="claim"]').waitFor({ timeout: 5000 });
  assert.match(await page.locator('.player .away').innerText(), /you may claim the win\)/);
  await page.close();
});

test('invite: the page says game, clock and who invites; the link has a copy button', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, standIn('commander', 'both', []));
  await page.route(/\/api\/invite\/Abc123$/, (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify({ id: 'Abc123', by: 'Alice', game: 'commander', options: '', clock: { initial_ms: 300000, increment_ms: 3000 }, rated: false }) }));
  await page.goto(`${env.site.url}/invite/Abc123`);
  await page.locator('.invite-what[data-game="commander"]').waitFor();
  assert.match(await page.locator('.invite-what').innerText(), /Alice invites you to Commander Chess, 5 min \+ 3 s\./);
  await page.route(/\/api\/invite\/Gone$/, (r) => r.fulfill({ status: 404, body: '{}' }));
  await page.goto(`${env.site.url}/invite/Gone`);
  await page.locator('.invite-what', { hasText: 'no longer open' }).waitFor();
  await page.close();
  const host = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await host.routeWebSocket(/\/ws/, (ws) => {
    ws.send(JSON.stringify({ t: 'welcome', protocol: 4, user: { id: 'u1', name: 'Alice', account: false }, games: GAMES }));
    ws.onMessage((text) => {
      if (JSON.parse(String(text)).t === 'invite') ws.send(JSON.stringify({ t: 'invite_created', code: 'Abc123', path: '/invite/Abc123' }));
    });
  });
  await host.goto(`${env.site.url}/#/`);
  await host.locator('[data-mode="invite"]').click();
  await host.locator('#invite-link').waitFor();
  await host.locator('[data-action="copy"]').click();
  await host.locator('[data-action="copy"]', { hasText: 'Copied' }).waitFor();
  await host.close();
});

test('export: a finished game\'s record is downloaded as a file, not opened in a tab', async () => {
  const s = driven(snapshot('xiangqi', 'first', { result: { winner: 'first', reason: 'checkmate' }, legal: null }));
  const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.routeWebSocket(/\/ws/, s.handler);
  await page.route(/\/api\/game\/fx-xiangqi\/export$/, (r) => r.fulfill({ contentType: 'text/plain', body: '[Game "xiangqi"]\n1. h2e2 *\n' }));
  await page.goto(`${env.site.url}/#/game/fx-xiangqi`);
  await page.locator('.end:not([hidden])').waitFor();
  const pages = page.context().pages().length;
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-action="export"]').click()]);
  assert.equal(download.suggestedFilename(), 'xiangqi-fx-xiangqi.txt');
  assert.equal(page.context().pages().length, pages, 'no new tab');
  await page.close();
});

test('rules pages: the real start positions from the server, the legend\'s pieces, no repository paths', async () => {
  for (const lang of LANGS) {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.addInitScript((l) => localStorage.setItem('cannonade_lang', l), lang);
    await serverApis(page);
    for (const kind of GAMES) {
      await page.goto(`${env.site.url}/rules/${kind}.html`);
      await page.locator('figure[data-start] .board .piece').first().waitFor();
      const drawn = await page.locator('figure[data-start] .board .piece').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-square'), e.getAttribute('data-piece')])));
      assert.deepEqual(drawn, FIXTURES[kind].start.pieces, `${kind}: the server's start position`);
      const symbols = new Set(FIXTURES[kind].geometry.pieces.filter((p) => p.colour !== 'unknown').map((p) => p.symbol));
      assert.equal(await page.locator('table tr[data-symbol]').count(), symbols.size, `${kind}: a row per piece`);
      const text = await page.locator('body').innerText();
      assert.doesNotMatch(text, /shared\/rules|docs\/rules|crates\//, `${kind} ${lang}: no repository paths`);
    }
    await page.close();
  }
});
