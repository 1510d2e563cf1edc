// The main screens with a lived-in conversation, each checked to render without page errors and
// photographed: into the run's shots, or into docs/screenshots (the README's) with IM_DOCS_SHOTS=1.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, SHOTS_DIR, launchBrowser, login, missingEnv, newMember, openChat, openSession, openSettings, setBackground, type Session } from './harness';
import { auditorToken, befriendOverApi, groupOverApi, registerOverApi, sendOverApi, sendToGroupOverApi, type Account } from './rest';

const DIR = process.env.IM_DOCS_SHOTS ? path.resolve('..', 'docs', 'screenshots') : SHOTS_DIR;
const DESKTOP = { width: 1100, height: 680 };
const PHONE = { width: 375, height: 720 };

async function photograph(page: Page, name: string): Promise<void> {
  await page.locator('.toast').waitFor({ state: 'detached', timeout: 8000 }).catch(() => undefined);
  await mkdir(DIR, { recursive: true });
  await page.screenshot({ path: path.join(DIR, `${name}.png`) });
}

/** Opens a conversation from the chats list and waits for one of its messages. */
async function openFromList(page: Page, peerId: string, message: string): Promise<void> {
  await page.getByTestId('tab-chats').click();
  await page.locator(`[data-testid=session-item][data-peer-id="${peerId}"]`).click();
  await page.locator('[data-testid=message]').getByText(message).waitFor();
}

describe('the main screens', { skip: missingEnv || undefined, timeout: 120_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupId = '';
  let start = 0;

  before(async () => {
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((tag) => registerOverApi(newMember(tag))));
    start = Math.ceil(Date.now() / 1000) * 1000;
    await new Promise((resolve) => setTimeout(resolve, start - Date.now()));
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    for (const [from, to, text] of [
      [bob, alice, 'Hi Alice! Are we still on for the hike on Saturday?'],
      [alice, bob, 'Yes! Meeting at the trailhead at 8.'],
      [bob, alice, 'Great. I will bring coffee.'],
      [alice, bob, 'Perfect, see you there.'],
    ] as const) {
      await sendOverApi(from, to, text);
    }
    ({ groupId } = await groupOverApi(alice, 'Weekend Hikers', [bob, carol]));
    await sendToGroupOverApi(carol, groupId, 'Who is driving on Saturday?');
    await sendToGroupOverApi(bob, groupId, 'I can take three people.');
    await sendToGroupOverApi(alice, groupId, 'Count me in, thanks Bob!');
    await sendOverApi(carol, alice, 'Sent you the map of the trail.');
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
    await openFromList(page, bob.id!, 'Perfect, see you there.');
    await photograph(page, 'chat-light');
    await setBackground(page, 'night');
    await openFromList(page, bob.id!, 'Perfect, see you there.');
    await photograph(page, 'chat-dark');
    await setBackground(page, 'default');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('group chat', async () => {
    const session = await signedIn();
    const { page } = session;
    await openFromList(page, groupId, 'Count me in, thanks Bob!');
    await photograph(page, 'group-chat');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('search', async () => {
    const session = await signedIn();
    const { page } = session;
    await page.getByTestId('global-search').fill('trail');
    await page.getByTestId('global-search-hit').nth(1).waitFor();
    await photograph(page, 'search');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('settings', async () => {
    const session = await signedIn();
    await openSettings(session.page);
    await photograph(session.page, 'settings');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('the menu at 375 px', async () => {
    const session = await signedIn(PHONE);
    await session.page.getByTestId('open-menu').click();
    await session.page.getByTestId('fixed-menu').waitFor();
    await photograph(session.page, 'phone-menu');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('the audit page, dark', async () => {
    const session = await openSession(browser, DESKTOP);
    const { page } = session;
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${BASE_URL}/admin/`);
    await page.locator('textarea[name=token]').fill(await auditorToken('ines', 'x0001'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    // What this spec's members did once signed up.
    const at = new Date(start);
    const two = (n: number) => String(n).padStart(2, '0');
    await page
      .locator('input[name=from]')
      .fill(`${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('[data-testid=events] li').filter({ hasText: 'Count me in, thanks Bob!' }).waitFor();
    await photograph(page, 'audit-dark');
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
