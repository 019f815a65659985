// Accounts and chat in the page, against the real `cannonade serve`: a player registers
// (keeping the game played before), logs out and back in, is told of a wrong password and a
// taken name, changes the password; two players chat, a muted user's lines are hidden, a
// spectator's line never reaches a player's page, and the flood limit is said in the panel.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realSite, shot } from './lib.mjs';

const { server, skip, newPage } = await realSite();

/** The page's user once its socket is open. */
async function user(page) {
  await page.waitForFunction(() => window.cannonade?.net?.status === 'open' && !!window.cannonade.net.user);
  return page.evaluate(() => window.cannonade.net.user);
}

/** Opens the account panel (if closed). */
async function openPanel(page) {
  if (await page.locator('#account-panel[hidden]').count()) await page.locator('#account-btn').click();
  await page.locator('#account-panel:not([hidden])').waitFor();
}

/** Fills and submits the login or registration form. */
async function signIn(page, mode, name, password) {
  await openPanel(page);
  await page.locator(`#account-panel [data-tab="${mode}"]`).click();
  await page.fill('#account-name', name);
  await page.fill('#account-password', password);
  await page.locator('#account-form button[type="submit"]').click();
}

test('accounts: register keeping the games played, log out, log back in, wrong passwords and taken names said', { skip: skip(), timeout: 120000 }, async () => {
  const page = await newPage();
  await page.goto(server.url + '/');
  const anon = await user(page);
  assert.match(anon.name, /^anon-/);
  await page.locator('#account-btn', { hasText: anon.name }).waitFor();
  // A game played anonymously, before registering.
  await page.locator('[data-mode="hotseat"]').click();
  await page.waitForFunction(() => !!window.cannonade.game?.snap);
  const game = await page.evaluate(() => window.cannonade.game.snap.game);
  assert.equal(await page.locator('.chat:not([hidden])').count(), 0, 'a chat panel with nobody to talk to (hot seat)');
  // Registration: a bad name is refused before asking the server.
  await openPanel(page);
  await page.locator('#account-panel [data-tab="register"]').click();
  await page.fill('#account-name', 'anon-me');
  await page.fill('#account-password', 'correct horse');
  await shot(page, 'account-register-form');
  await page.locator('#account-form button[type="submit"]').click();
  await page.locator('.account-error', { hasText: 'may not start with' }).waitFor();
  await page.fill('#account-name', 'zoe');
  await page.locator('#account-form button[type="submit"]').click();
  await page.locator('#account-btn', { hasText: /^zoe$/ }).waitFor();
  const zoe = await user(page);
  assert.equal(zoe.account, true);
  assert.equal(zoe.id, anon.id, 'the anonymous player became the account');
  // The game played before registering is the account's, here and in another browser.
  await page.goto(server.url + '/#/past');
  await page.locator(`[data-past="${game}"]`).waitFor();
  const other = await newPage();
  await other.goto(server.url + '/#/past');
  await user(other);
  // A taken name (in any case) is said so.
  await signIn(other, 'register', 'ZOE', 'another horse');
  await other.locator('.account-error', { hasText: 'That name is taken' }).waitFor();
  await signIn(other, 'login', 'zoe', 'correct horse');
  await other.locator('#account-btn', { hasText: /^zoe$/ }).waitFor();
  await other.locator(`[data-past="${game}"]`).waitFor();
  // Log out: a new anonymous user.
  await openPanel(page);
  await shot(page, 'account-signed-in');
  await page.locator('#logout').click();
  await page.locator('#account-btn', { hasText: /^anon-/ }).waitFor();
  const after = await user(page);
  assert.equal(after.account, false);
  assert.notEqual(after.id, zoe.id);
  // A wrong password is said so; the right one logs back in.
  await signIn(page, 'login', 'zoe', 'wrong horse');
  await page.locator('.account-error', { hasText: 'Wrong name or password' }).waitFor();
  await shot(page, 'account-login-error');
  await page.fill('#account-password', 'correct horse');
  await page.locator('#account-form button[type="submit"]').click();
  await page.locator('#account-btn', { hasText: /^zoe$/ }).waitFor();
  // Six tries at one name within seconds: the sixth is throttled, and the page says when to
  // come back (a change of password counts as a login: it is a password guess too).
  await openPanel(page);
  await page.fill('#old-password', 'not my password');
  await page.fill('#new-password', 'battery staple');
  await page.locator('#password-form button[type="submit"]').click();
  await page.locator('#password-form .account-error', { hasText: /Too many attempts\. Try again in \d+ s\./ }).waitFor();
  await shot(page, 'account-throttled');
  // Change of password, on another account: the wrong current one is refused; then the
  // other browser's session is over, this one goes on.
  await openPanel(other);
  await other.locator('#logout').click();
  await other.locator('#account-btn', { hasText: /^anon-/ }).waitFor();
  await signIn(other, 'register', 'yan', 'correct horse');
  await other.locator('#account-btn', { hasText: /^yan$/ }).waitFor();
  const third = await newPage();
  await third.goto(server.url + '/');
  await user(third);
  await signIn(third, 'login', 'yan', 'correct horse');
  await third.locator('#account-btn', { hasText: /^yan$/ }).waitFor();
  await openPanel(other);
  await other.fill('#old-password', 'not my password');
  await other.fill('#new-password', 'battery staple');
  await other.locator('#password-form button[type="submit"]').click();
  await other.locator('#password-form .account-error', { hasText: 'current password is wrong' }).waitFor();
  await other.fill('#old-password', 'correct horse');
  await other.fill('#new-password', 'battery staple');
  await other.locator('#password-form button[type="submit"]').click();
  await other.locator('#password-form .account-error.ok').waitFor();
  await shot(other, 'account-password-changed');
  const mine = await other.evaluate(() => fetch('/api/sessions').then((r) => r.status));
  assert.equal(mine, 200);
  const theirs = await third.evaluate(() => fetch('/api/sessions').then((r) => r.status));
  assert.equal(theirs, 401, 'the other session outlived the password change');
  await third.context().close();
  await page.context().close();
  await other.context().close();
});

/** Alice invites, Bob accepts; both in the game. Returns the game id. */
async function pair(alice, bob) {
  await alice.goto(server.url + '/');
  await user(alice);
  await alice.locator('.game-pick [data-game="xiangqi"]').click();
  await alice.selectOption('#clock', '0');
  await alice.locator('[data-mode="invite"]').click();
  const link = await alice.locator('#invite-link').inputValue();
  await bob.goto(link);
  await user(bob);
  await bob.locator('[data-mode="accept-invite"]').click();
  for (const p of [alice, bob]) await p.waitForFunction(() => !!window.cannonade.game?.snap);
  return alice.evaluate(() => window.cannonade.game.snap.game);
}

/** Writes a chat line through the panel. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.locator('.chat-form button[type="submit"]').click();
}

/** A chat line of `from` saying `text` (a locator). */
function line(page, from, text) {
  return page.locator(`.chat-lines li[data-from="${from}"]`, { hasText: text });
}

test('chat: the opponent reads a line, a muted user is hidden, spectators never reach players, floods are said', { skip: skip(), timeout: 120000 }, async () => {
  const alice = await newPage();
  const bob = await newPage();
  const carol = await newPage();
  const id = await pair(alice, bob);
  const [a, b] = [await user(alice), await user(bob)];
  await carol.goto(`${server.url}/#/game/${id}`);
  await carol.waitForFunction(() => window.cannonade.game?.snap?.you === 'spectator');
  const c = await user(carol);
  // A player's line reaches the opponent (and the spectator, marked as the players' room).
  await say(alice, 'good luck');
  await line(bob, a.name, 'good luck').waitFor();
  await line(carol, a.name, 'good luck').locator('.room').waitFor();
  // Text stays text: markup in a line is shown, never made.
  await say(bob, '<img src=x onerror="window.pwned=1"><b>hi</b>');
  await line(alice, b.name, '<b>hi</b>').waitFor();
  assert.equal(await alice.locator('.chat-lines img, .chat-lines b').count(), 0);
  assert.equal(await alice.evaluate(() => window.pwned), undefined);
  // A spectator's line reaches spectators only.
  await say(carol, 'b2e2 wins');
  await line(carol, c.name, 'b2e2 wins').waitFor();
  await say(alice, 'after the spectator');
  await line(bob, a.name, 'after the spectator').waitFor();
  for (const p of [alice, bob]) {
    assert.equal(await p.locator('.chat-lines li[data-room="spectators"]').count(), 0, 'a player got spectators\' chat');
    assert.equal(await line(p, c.name, 'b2e2').count(), 0);
  }
  // Bob mutes Alice: her lines go, old and new, and stay gone after a reload.
  await bob.locator(`.chat-lines button[data-mute="${a.name}"]`).first().click();
  assert.equal(await bob.locator(`.chat-lines li[data-from="${a.name}"]`).count(), 0);
  await bob.locator(`.chat-muted button[data-unmute="${a.name}"]`).waitFor();
  await say(alice, 'you cannot hear me');
  await line(carol, a.name, 'you cannot hear me').waitFor();
  await say(carol, 'marker');
  await line(carol, c.name, 'marker').waitFor();
  await say(alice, 'still muted');
  await line(alice, a.name, 'still muted').waitFor();
  await bob.waitForTimeout(500);
  assert.equal(await bob.locator(`.chat-lines li[data-from="${a.name}"]`).count(), 0, 'a muted user\'s line shows');
  await bob.reload();
  await bob.waitForFunction(() => !!window.cannonade.game?.snap);
  await line(bob, b.name, '<b>hi</b>').waitFor();
  assert.equal(await bob.locator(`.chat-lines li[data-from="${a.name}"]`).count(), 0, 'the mute was forgotten');
  await shot(bob, 'chat-player-muted');
  await shot(carol, 'chat-spectator');
  // Unmuting brings her lines back.
  await bob.locator(`.chat-muted button[data-unmute="${a.name}"]`).click();
  await line(bob, a.name, 'good luck').waitFor();
  // A flood: the socket's limit refuses lines, and the panel says so.
  await alice.evaluate(() => {
    const input = /** @type {HTMLInputElement} */ (document.getElementById('chat-input'));
    const form = /** @type {HTMLFormElement} */ (input.form);
    for (let i = 0; i < 60; i++) {
      input.value = `flood ${i}`;
      form.requestSubmit();
    }
  });
  await alice.locator('.chat-note', { hasText: 'too fast' }).waitFor();
  assert.equal(await alice.locator('.toast').count(), 0, 'the server\'s English refusal shown besides the panel\'s');
  await shot(alice, 'chat-flood');
  for (const p of [alice, bob, carol]) await p.context().close();
});
