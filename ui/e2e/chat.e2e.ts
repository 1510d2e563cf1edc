import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  BASE_URL,
  insecureUrl,
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openFixedEntry,
  openSession,
  register,
  sendFromComposer,
  shot,
  waitUntil,
  watchCsp,
  type Session,
} from './harness';

const session = (page: Page, peerId: string) => page.locator(`[data-testid=session-item][data-peer-id="${peerId}"]`);

describe('two members become friends and chat', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let blocked: string[][];
  const alice = newMember('alice');
  const bob = newMember('bob');
  const text = `Hello Bob, it is ${new Date().toISOString().slice(11, 19)}`;

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    b = await openSession(browser);
    blocked = await Promise.all([watchCsp(a), watchCsp(b)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('shows the landing page and refuses a login without the agreement ticked', async () => {
    const response = await a.page.goto(`${BASE_URL}/`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self';/);
    assert.equal(response?.headers()['x-frame-options'], 'DENY');
    await a.page.waitForURL(/#\/landing$/);
    await a.page.getByRole('button', { name: 'Sign up' }).waitFor();
    await shot(a.page, '01-landing');
    await a.page.getByRole('button', { name: 'Log in' }).click();
    await a.page.waitForURL(/#\/login$/);
    await a.page.locator('input[name=account]').fill('someone');
    await a.page.locator('input[name=password]').fill('secret1');
    await a.page.getByRole('button', { name: 'Log in', exact: true }).click();
    await a.page.getByText('Please read and tick the user agreement').waitFor();
    await shot(a.page, '02-login-validation');
  });

  it('registers and logs in both members', async () => {
    await Promise.all([register(a.page, alice, '03-register'), register(b.page, bob)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
    assert.match(alice.id!, /^\d+$/);
    assert.match(bob.id!, /^\d+$/);
    await shot(a.page, '04-home-empty');
  });

  it('lets A find B by account and send a friend request', async () => {
    await a.page.getByTestId('tab-contacts').click();
    await a.page.getByTestId('open-add-friend').click();
    await a.page.getByTestId('add-friend-keyword').fill(bob.account);
    await a.page.getByTestId('add-friend-search').click();
    await a.page.getByTestId('add-friend-result').getByText(`@${bob.account}`).waitFor();
    await shot(a.page, '05-add-friend');
    await a.page.getByTestId('send-friend-request').click();
    await a.page.getByTestId('request-sent').waitFor();
  });

  it('shows B the request live, and B accepts it', async () => {
    await b.page.getByTestId('tab-contacts').click();
    await b.page.getByTestId('requests-badge').filter({ hasText: '1' }).waitFor();
    await b.page.getByTestId('open-requests').click();
    const request = b.page.locator('[data-testid=request-item][data-direction=received][data-status=pending]');
    await request.waitFor();
    await shot(b.page, '06-friend-requests');
    await request.getByTestId('request-accept').click();
    await b.page.locator('[data-testid=request-item][data-status=accepted]').waitFor();
    await b.page.locator(`[data-testid=friend-item][data-peer-id="${alice.id}"]`).waitFor();
  });

  it('lets A open the chat and send a text', async () => {
    const friend = a.page.locator(`[data-testid=friend-item][data-peer-id="${bob.id}"]`);
    await friend.waitFor();
    await friend.click();
    await a.page.getByTestId('chat-view').waitFor();
    await a.page.getByTestId('composer').fill(text);
    await a.page.getByTestId('composer').press('Enter');
    const bubble = a.page.getByTestId('message').filter({ hasText: text });
    await bubble.waitFor();
    await waitUntil('the message to leave the sending state', async () =>
      ['sent', 'Unread', 'Read'].includes((await bubble.getAttribute('data-status')) ?? ''),
    );
  });

  it('shows B the new chat live with unread badge 1 and the preview', async () => {
    await b.page.getByTestId('tab-chats').click();
    const item = session(b.page, alice.id!);
    await item.getByTestId('unread-badge').filter({ hasText: /^1$/ }).waitFor();
    assert.equal(await item.getByTestId('session-preview').textContent(), text);
    await shot(b.page, '07-unread-badge');
  });

  it('clears the badge when B opens the chat, and A sees the message Read', async () => {
    await session(b.page, alice.id!).click();
    await b.page.getByTestId('message').filter({ hasText: text }).waitFor();
    await session(b.page, alice.id!).getByTestId('unread-badge').waitFor({ state: 'detached' });
    await a.page.locator('[data-testid=message][data-status=Read]').filter({ hasText: text }).waitFor();
    await session(b.page, alice.id!).getByText(alice.account).waitFor();
    await a.page.getByTestId('tab-chats').click();
    await session(a.page, bob.id!).getByText(bob.account).waitFor();
    await shot(a.page, '08-chat-read');
    await shot(b.page, '09-chat-received');
  });

  it('answers in both directions with Enter and keeps Shift+Enter as a new line', async () => {
    const composer = b.page.getByTestId('composer');
    await composer.fill('Hi Alice!');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('Second line');
    assert.equal(await composer.inputValue(), 'Hi Alice!\nSecond line');
    await composer.press('Enter');
    await a.page.getByTestId('message').filter({ hasText: 'Second line' }).waitFor();
    await b.page.locator('[data-testid=message][data-status=Read]').filter({ hasText: 'Second line' }).waitFor();
  });

  it('marks a send made offline as failed and resends it on tap', async () => {
    await a.context.setOffline(true);
    await a.page.getByTestId('connection-banner').filter({ hasText: 'Network disconnected' }).waitFor();
    await a.page.getByTestId('composer').fill('sent while offline');
    await a.page.getByTestId('send-button').click();
    const failed = a.page
      .locator('[data-testid=message][data-status=failedSent]')
      .filter({ hasText: 'sent while offline' });
    await failed.waitFor();
    await shot(a.page, '10-offline-failed');
    await a.context.setOffline(false);
    await a.page.getByTestId('connection-banner').waitFor({ state: 'detached' });
    await failed.getByRole('button').click();
    await b.page.getByTestId('message').filter({ hasText: 'sent while offline' }).waitFor();
    assert.equal(await a.page.getByTestId('message').filter({ hasText: 'sent while offline' }).count(), 1);
  });

  it('catches up on what arrived while the socket was down', async () => {
    await b.context.setOffline(true);
    await b.page.getByTestId('connection-banner').waitFor();
    await sendFromComposer(a.page, 'while you were away');
    await b.context.setOffline(false);
    await b.page.getByTestId('message').filter({ hasText: 'while you were away' }).waitFor();
    await a.page
      .locator('[data-testid=message][data-status=Read]')
      .filter({ hasText: 'while you were away' })
      .waitFor();
  });

  it('loads older history on scrolling to the top and keeps the reader in place', async () => {
    await a.page.evaluate(async (to) => {
      const auth = JSON.parse(localStorage.getItem('eventchat.auth')!);
      for (let i = 1; i <= 25; i++) {
        const response = await fetch('/v1/message/send', {
          method: 'POST',
          headers: { Authorization: `Bearer ${auth.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            uuid: crypto.randomUUID(),
            chatType: 'Friend',
            to,
            msgType: 'Text',
            content: `bulk ${i}`,
          }),
        });
        if (!response.ok) throw new Error(`send ${i}: ${response.status}`);
      }
    }, bob.id!);
    await b.page.reload();
    await session(b.page, alice.id!).click();
    const scroller = b.page.getByTestId('message-scroller');
    const bulk = (n: number) => b.page.getByTestId('message').getByText(`bulk ${n}`, { exact: true });
    await bulk(25).waitFor();
    assert.equal(await bulk(1).count(), 0, 'the first page holds the newest 20 only');
    const oldestShown = b.page.getByTestId('message').first();
    const oldestText = await oldestShown.textContent();
    await scroller.evaluate((element) => element.scrollTo({ top: 0 }));
    await bulk(1).waitFor();
    await shot(b.page, '11-history-older');
    const anchor = b.page
      .getByTestId('message')
      .filter({ hasText: oldestText ?? '' })
      .first();
    const [box, view] = await Promise.all([anchor.boundingBox(), scroller.boundingBox()]);
    assert.ok(box && view && box.y >= view.y && box.y < view.y + view.height, 'the message at the top stays in view');
    assert.ok(
      (await scroller.evaluate((element) => element.scrollTop)) > 0,
      'the view did not jump to the oldest message',
    );
  });

  it('opens a fixed entry as an empty view', async () => {
    await a.page.getByTestId('tab-chats').click();
    await openFixedEntry(a.page, '001');
    await a.page.getByTestId('fixed-empty').waitFor();
    await shot(a.page, '12-favourites');
  });

  it('shows one panel at a time at 375 px: the list, then the chat with a back button', async () => {
    const phone = await openSession(browser, { width: 375, height: 740 });
    try {
      await login(phone.page, bob);
      assert.equal(await phone.page.locator('.home').getAttribute('data-layout'), 'mobile-list');
      await session(phone.page, alice.id!).waitFor();
      assert.equal(await phone.page.getByTestId('chat-view').count(), 0);
      await shot(phone.page, '13-mobile-list');
      await session(phone.page, alice.id!).click();
      await phone.page.getByTestId('chat-view').getByText('bulk 25', { exact: true }).waitFor();
      assert.equal(await phone.page.getByTestId('session-list').count(), 0);
      await shot(phone.page, '14-mobile-chat');
      await phone.page.getByTestId('back-button').click();
      await session(phone.page, alice.id!).waitFor();
      assert.equal(await phone.page.getByTestId('chat-view').count(), 0);
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
  });

  it('works on a plain-http page without WebCrypto (frames through @noble/ciphers)', async () => {
    const insecure = await openSession(browser);
    try {
      await login(insecure.page, alice, insecureUrl());
      assert.deepEqual(await insecure.page.evaluate(() => [window.isSecureContext, typeof crypto.subtle]), [
        false,
        'undefined',
      ]);
      await session(insecure.page, bob.id!).click();
      await insecure.page.getByTestId('chat-view').waitFor();
      await b.page.getByTestId('composer').fill('over plain http');
      await b.page.getByTestId('composer').press('Enter');
      await insecure.page.getByTestId('message').getByText('over plain http', { exact: true }).waitFor();
      await b.page.locator('[data-testid=message][data-status=Read]').filter({ hasText: 'over plain http' }).waitFor();
      assert.deepEqual(insecure.errors, []);
    } finally {
      await insecure.context.close();
    }
  });

  it('switches the language and sends it as Accept-Language', async () => {
    const page = (await openSession(browser)).page;
    try {
      await page.goto(`${BASE_URL}/#/login`);
      await page.getByRole('radio', { name: 'Tiếng Việt' }).click();
      await page.getByRole('button', { name: 'Đăng nhập', exact: true }).waitFor();
      await page.locator('input[name=account]').fill(alice.account);
      await page.locator('input[name=password]').fill('wrongpass1');
      await page.locator('input[name=agreement]').check();
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().endsWith('/v1/member/memberInfo/login')),
        page.getByRole('button', { name: 'Đăng nhập', exact: true }).click(),
      ]);
      assert.equal(request.headers()['accept-language'], 'vi_VN');
      await page.getByRole('alert').first().waitFor();
      await shot(page, '15-login-vi-error');
    } finally {
      await page.context().close();
    }
  });

  it('logs out on an expired token with the notice, and on the logout button', async () => {
    await b.page.evaluate(() => {
      const auth = JSON.parse(localStorage.getItem('eventchat.auth')!);
      localStorage.setItem('eventchat.auth', JSON.stringify({ ...auth, token: 'expired-token' }));
    });
    await b.page.reload();
    // The notice stays up on the login page, a new document after the member's app path.
    await b.page.waitForURL((url) => url.pathname === '/' && url.hash === '#/login');
    await b.page.getByRole('alert').filter({ hasText: 'Login expired, please log in again' }).waitFor();
    assert.equal(await b.page.evaluate(() => localStorage.getItem('eventchat.auth')), null);

    await a.page.getByRole('button', { name: 'Log out' }).click();
    await a.page.waitForURL(/\/#\/login$/);
    assert.equal(await a.page.evaluate(() => localStorage.getItem('eventchat.auth')), null);
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });

  it('met the Content-Security-Policy across the logins and the chat: nothing blocked', () => {
    assert.deepEqual(blocked, [[], []]);
  });
});
