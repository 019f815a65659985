// The message catalogues: every key of the English page and rules catalogues is in each
// other language, no language has a key English lacks, parameters match, and every key the
// code asks for exists (literal keys found in the source, and the keys built from the
// server's names: games, colours, piece symbols, reasons).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WEB, FIXTURES } from './lib.mjs';

const LANGS = ['en', 'zh-Hans', 'zh-Hant', 'vi'];
const I18N = join(WEB, 'static', 'i18n');

async function catalogue(part, lang) {
  return (await import(join(I18N, `${part}${lang}.js`))).default;
}

const params = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();

for (const part of ['', 'rules-']) {
  test(`${part || 'page-'}catalogues: every key in every language, with the same parameters`, async () => {
    const en = await catalogue(part, 'en');
    for (const lang of LANGS.slice(1)) {
      const other = await catalogue(part, lang);
      const missing = Object.keys(en).filter((k) => !(k in other));
      assert.deepEqual(missing, [], `${lang} lacks keys`);
      const extra = Object.keys(other).filter((k) => !(k in en) && !k.includes('@'));
      assert.deepEqual(extra, [], `${lang} has keys English lacks`);
      for (const k of Object.keys(en)) assert.equal(params(other[k]), params(en[k]), `${lang} ${k}: parameters`);
      for (const [k, v] of Object.entries(other)) assert.ok(v.trim().length > 0, `${lang} ${k} is empty`);
    }
  });
}

test('every key the code asks for is in the English catalogues', async () => {
  const en = { ...(await catalogue('', 'en')), ...(await catalogue('rules-', 'en')) };
  const js = join(WEB, 'static', 'js');
  const html = join(WEB, 'static', 'rules');
  const sources = [
    ...readdirSync(js).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(js, f), 'utf8')),
    ...readdirSync(html).map((f) => readFileSync(join(html, f), 'utf8')),
    readFileSync(join(WEB, 'static', 'index.html'), 'utf8'),
  ].join('\n');
  const literal = [...sources.matchAll(/\bt\(\s*'([a-z_.]+)'/g), ...sources.matchAll(/data-i18n(?:-html)?="([a-z_.]+)"/g)].map((m) => m[1]);
  // Keys built from names the server sends.
  const games = Object.keys(FIXTURES);
  const symbols = new Set(games.flatMap((g) => FIXTURES[g].geometry.pieces.map((p) => p.symbol)));
  const colours = new Set(games.flatMap((g) => FIXTURES[g].geometry.pieces.map((p) => p.colour)).filter((c) => c !== 'unknown'));
  const reasons = ['checkmate', 'stalemate', 'no_move', 'elimination', 'repetition', 'perpetual_check', 'perpetual_chase', 'move_limit', 'dead_material', 'capture', 'points', 'resignation', 'agreement', 'time', 'abandonment', 'aborted'];
  const built = [
    ...games.flatMap((g) => [`game.${g}`, `home.blurb.${g}`, `rules.title.${g}`, `rules.intro.${g}`, `rules.more.${g}`]),
    ...[...symbols].map((s) => (s === 'hidden' ? 'piece.hidden' : `piece.${s}`)),
    ...[...symbols].filter((s) => s !== 'hidden').map((s) => `rules.move.${s}`),
    ...[...colours].map((c) => `colour.${c}`),
    ...reasons.map((r) => `reason.${r}`),
    ...['draw', 'takeback', 'rematch'].map((o) => `offer.${o}`),
    ...['playing', 'hotseat', 'watching', 'finished'].map((r) => `role.${r}`),
    ...['start', 'back', 'forward', 'end'].map((n) => `replay.nav_${n}`),
  ];
  const missing = [...new Set([...literal, ...built])].filter((k) => !(k in en));
  assert.deepEqual(missing, []);
  assert.ok(literal.length > 100, `the scan finds the code's keys (${literal.length})`);
});
