import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const item = (page: Page, peerId: string) => page.locator(`[data-testid=session-item][data-peer-id="${peerId}"]`);
const row = (page: Page, peerId: string) => page.locator('.session-row').filter({ has: item(page, peerId) });

async function order(page: Page): Promise<string[]> {
  return page.getByTestId('session-item').evaluateAll((items) => items.map((el) => el.getAttribute('data-peer-id') ?? ''));
}

async function pick(page: Page, action: string): Promise<void> {
  await page.locator(`[data-testid=session-menu] [data-action=${action}]`).click();
  await page.getByTestId('session-menu').waitFor({ state: 'detached' });
}

async function rightClick(target: Locator): Promise<void> {
  await target.click({ button: 'right' });
}

describe('conversation actions from the list', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;

  before(async () => {
    if (missingEnv) return;
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('alice')),
      registerOverApi(newMember('bob')),
      registerOverApi(newMember('carol')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    await sendOverApi(bob, alice, 'from bob');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sendOverApi(carol, alice, 'from carol');
    browser = await launchBrowser();
    a = await openSession(browser);
    await login(a.page, alice);
    await item(a.page, bob.id!).waitFor();
    await item(a.page, carol.id!).waitFor();
  });

  after(async () => {
    await browser?.close();
  });

  it('pins a conversation from the context menu: it moves to the top with the pin marker, and unpins', async () => {
    const page = a.page;
    await waitUntil('carol, the newest, first', async () => (await order(page))[0] === carol.id);
    await rightClick(item(page, bob.id!));
    await page.getByTestId('session-menu').waitFor();
    await shot(page, 'conv-01-context-menu');
    await pick(page, 'pin');
    await item(page, bob.id!).getByTestId('pin-marker').waitFor();
    await waitUntil('bob pinned to the top', async () => (await order(page))[0] === bob.id);
    await shot(page, 'conv-02-pinned');

    await page.reload();
    await item(page, bob.id!).getByTestId('pin-marker').waitFor();
    assert.deepEqual((await order(page)).slice(0, 2), [bob.id, carol.id], 'the server keeps the pin');

    await row(page, bob.id!).getByTestId('session-more').click();
    await pick(page, 'unpin');
    await item(page, bob.id!).getByTestId('pin-marker').waitFor({ state: 'detached' });
    await waitUntil('carol back on top', async () => (await order(page))[0] === carol.id);
  });

  it('turns do-not-disturb on: a muted bell, and a grey badge that still counts', async () => {
    const page = a.page;
    await rightClick(item(page, carol.id!));
    await pick(page, 'dndOn');
    await item(page, carol.id!).getByTestId('dnd-marker').waitFor();
    await sendOverApi(carol, alice, 'while muted');
    const badge = item(page, carol.id!).getByTestId('unread-badge');
    await badge.filter({ hasText: /^2$/ }).waitFor();
    assert.match((await badge.getAttribute('class')) ?? '', /badge-muted/);
    await shot(page, 'conv-03-dnd');

    await rightClick(item(page, carol.id!));
    await pick(page, 'dndOff');
    await item(page, carol.id!).getByTestId('dnd-marker').waitFor({ state: 'detached' });
    assert.doesNotMatch((await badge.getAttribute('class')) ?? '', /badge-muted/);
  });

  it('marks read and unread', async () => {
    const page = a.page;
    const badge = item(page, carol.id!).getByTestId('unread-badge');
    await rightClick(item(page, carol.id!));
    await pick(page, 'markRead');
    await badge.waitFor({ state: 'detached' });
    await page.reload();
    await item(page, carol.id!).waitFor();
    assert.equal(await badge.count(), 0, 'the server read the chat');

    await rightClick(item(page, carol.id!));
    await pick(page, 'markUnread');
    await badge.filter({ hasText: /^1$/ }).waitFor();
  });

  it('removes a conversation until a newer message arrives in it', async () => {
    const page = a.page;
    await row(page, bob.id!).getByTestId('session-more').click();
    await pick(page, 'remove');
    await item(page, bob.id!).waitFor({ state: 'detached' });
    await page.reload();
    await item(page, carol.id!).waitFor();
    assert.equal(await item(page, bob.id!).count(), 0, 'the server keeps it removed');

    await sendOverApi(bob, alice, 'back again');
    await item(page, bob.id!).getByTestId('session-preview').filter({ hasText: 'back again' }).waitFor();
    await shot(page, 'conv-04-back-after-remove');
    assert.deepEqual(a.errors, []);
  });
});
