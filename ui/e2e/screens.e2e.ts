// The main screens with a lived-in conversation, each checked to render without page errors and
// photographed: into the run's shots, or into docs/screenshots (the README's) with IM_DOCS_SHOTS=1.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, SHOTS_DIR, launchBrowser, login, missingEnv, newMember, openChat, openSession, type Session } from './harness';
import { befriendOverApi, rawCall, registerOverApi, type Account } from './rest';

const DIR = process.env.IM_DOCS_SHOTS ? path.resolve('..', 'docs', 'screenshots') : SHOTS_DIR;
const DESKTOP = { width: 1100, height: 680 };
const PHONE = { width: 375, height: 720 };

async function say(from: Account, to: { to?: string; groupId?: string }, content: string): Promise<void> {
  const sent = await rawCall('POST', '/v1/message/send', from.token, {
    uuid: `shot-${Date.now()}-${Math.random().toString(36).slice(2)}`,
    chatType: to.groupId ? 'Group' : 'Friend',
    ...to,
    msgType: 'Text',
    content,
  });
  assert.equal(sent.code, '200', sent.info);
}

async function photograph(page: Page, name: string): Promise<void> {
  await page.locator('.toast').waitFor({ state: 'detached', timeout: 8000 }).catch(() => undefined);
  await mkdir(DIR, { recursive: true });
  await page.screenshot({ path: path.join(DIR, `${name}.png`) });
}

async function setBackground(page: Page, background: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('background').selectOption(background);
}

describe('the main screens', { skip: missingEnv || undefined, timeout: 120_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupId = '';

  before(async () => {
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((tag) => registerOverApi(newMember(tag))));
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    for (const [from, to, text] of [
      [bob, alice, 'Hi Alice! Are we still on for the hike on Saturday?'],
      [alice, bob, 'Yes! Meeting at the trailhead at 8.'],
      [bob, alice, 'Great. I will bring coffee.'],
      [alice, bob, 'Perfect, see you there.'],
    ] as const) {
      await say(from, { to: to.id }, text);
    }
    const built = await rawCall<{ groupId: string }>('POST', '/v1/chat/groupInfo/build', alice.token, {
      name: 'Weekend Hikers',
      headUrl: '',
      notice: '',
      memberIds: [bob.id, carol.id],
    });
    assert.equal(built.code, '200', built.info);
    groupId = built.data.groupId;
    await say(carol, { groupId }, 'Who is driving on Saturday?');
    await say(bob, { groupId }, 'I can take three people.');
    await say(alice, { groupId }, 'Count me in, thanks Bob!');
    await say(carol, { to: alice.id }, 'Sent you the map of the trail.');
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  async function signedIn(viewport = DESKTOP): Promise<Session> {
    const session = await openSession(browser, viewport);
    await login(session.page, alice);
    return session;
  }

  it('login', async () => {
    const session = await openSession(browser, DESKTOP);
    await session.page.goto(`${BASE_URL}/#/login`);
    await session.page.locator('input[name=account]').waitFor();
    await photograph(session.page, 'login');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('chat list and a 1:1 chat, light and dark', async () => {
    const session = await signedIn();
    const { page } = session;
    await page.getByTestId('tab-chats').click();
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    await page.locator('[data-testid=message]').getByText('Perfect, see you there.').waitFor();
    await photograph(page, 'chat-light');
    await setBackground(page, 'night');
    await page.getByTestId('tab-chats').click();
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    await page.locator('[data-testid=message]').getByText('Perfect, see you there.').waitFor();
    await photograph(page, 'chat-dark');
    await setBackground(page, 'default');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('group chat', async () => {
    const session = await signedIn();
    const { page } = session;
    await page.getByTestId('tab-chats').click();
    await page.locator(`[data-testid=session-item][data-peer-id="${groupId}"]`).click();
    await page.locator('[data-testid=message]').getByText('Count me in, thanks Bob!').waitFor();
    await photograph(page, 'group-chat');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('settings', async () => {
    const session = await signedIn();
    await session.page.getByTestId('open-settings').click();
    await session.page.getByTestId('settings').waitFor();
    await photograph(session.page, 'settings');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('a chat at 375 px', async () => {
    const session = await signedIn(PHONE);
    await openChat(session.page, bob.id!);
    await session.page.locator('[data-testid=message]').getByText('Perfect, see you there.').waitFor();
    await photograph(session.page, 'phone-chat');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });
});
