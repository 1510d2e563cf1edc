import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openChat,
  openGroupChat,
  openSession,
  sendFromComposer,
  shot,
  waitUntil,
  type Session,
} from './harness';
import {
  adminOverApi,
  befriendOverApi,
  call,
  groupOverApi,
  registerOverApi,
  sendOverApi,
  sendToGroupOverApi,
  type Account,
} from './rest';

const bubble = (page: Page, text: string) => page.getByTestId('message').getByText(text, { exact: true });

/**
 * Sends `${prefix} 1` to `${prefix} ${count}`, ten at once, then the next ten. Sends at once can take
 * ids out of the chat's order: the open chat must still read up to the last message in the chat.
 */
async function sendInTens(count: number, prefix: string, send: (content: string) => Promise<void>): Promise<void> {
  for (let i = 1; i <= count; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, count - i + 1) }, (_, j) => send(`${prefix} ${i + j}`)));
  }
}

/** How far the open chat's view is above its newest message, in px. */
const gapBelow = (page: Page) =>
  page
    .getByTestId('message-scroller')
    .evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

async function followsToTheBottom(page: Page): Promise<void> {
  await waitUntil('the open chat follows the newest message', async () => (await gapBelow(page)) < 4, 5_000).catch(
    async (error) => {
      throw new Error(`${error}: ${await gapBelow(page)} px below the view`);
    },
  );
}

describe('a burst of messages into an open chat', { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let a: Session;
  let ann: Account;
  let ben: Account;
  const alice = newMember('alice');
  const bob = newMember('bob');
  const total = 1500;

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    [ann, ben] = await Promise.all([registerOverApi(alice), registerOverApi(bob)]);
    await befriendOverApi(ann, ben);
    await login(a.page, alice);
    await openChat(a.page, bob.id!);
  });

  after(async () => {
    await browser?.close();
  });

  it(`shows each of ${total} messages pushed in a burst as they come, reads them all, and stays usable`, async () => {
    const head = async () => (await adminOverApi<{ head: number }>('GET', '/v1/admin/projections/status')).head;
    const headBefore = await head();
    const began = Date.now();
    await sendInTens(total, 'burst', (content) => sendOverApi(ben, ann, content));
    const sent = Date.now() - began;
    await bubble(a.page, `burst ${total}`).waitFor({ timeout: 60_000 });
    console.log(`# ${total} messages sent in ${sent} ms; the last shown ${Date.now() - began} ms after the first send`);
    await followsToTheBottom(a.page);
    await shot(a.page, 'b01-burst-shown');

    await waitUntil('the burst is read: no unread count on the chat', async () => {
      const sessions = await call<{ friendMemberId: string; unreadCount: number }[]>(
        'GET',
        '/v1/message/sessionInfo/list',
        ann.token,
      );
      return sessions.some((s) => s.friendMemberId === ben.id && s.unreadCount === 0);
    }, 30_000);

    // An ack reads every earlier message: the open chat acknowledges the newest it shows, not each.
    const acks = (await head()) - headBefore - total;
    console.log(`# ${acks} read acknowledgements appended for the ${total} messages`);
    assert.ok(acks >= 1 && acks < total / 5, `${acks} read acknowledgements`);
    await sendFromComposer(a.page, 'got them all');
    await sendOverApi(ben, ann, 'and one more');
    await bubble(a.page, 'and one more').waitFor();
    await followsToTheBottom(a.page);
  });

  it('leaves a reader who scrolled up where they are while more arrive', async () => {
    const scroller = a.page.getByTestId('message-scroller');
    const box = (await scroller.boundingBox())!;
    await a.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await a.page.mouse.wheel(0, -3000);
    await waitUntil('scrolled up', async () => (await scroller.evaluate((element) => element.scrollTop)) > 0);
    const read = async () =>
      scroller.evaluate((element) => ({
        top: element.scrollTop,
        gap: element.scrollHeight - element.scrollTop - element.clientHeight,
      }));
    const before = await read();
    assert.ok(before.gap > 2000, `scrolled up: ${before.gap} px below the view`);
    await sendInTens(100, 'later', (content) => sendOverApi(ben, ann, content));
    await a.page.getByTestId('message').getByText('later 100', { exact: true }).waitFor({ state: 'attached' });
    const after = await read();
    assert.ok(after.gap > before.gap, `the view stayed up: ${after.gap} px below it, ${before.gap} before`);
    await shot(a.page, 'b02-reader-left-in-place');
  });

  it('follows a burst into an open group chat the same way, and reads it', async () => {
    const { groupId } = await groupOverApi(ben, 'Burst', [ann]);
    await openGroupChat(a.page, groupId);
    const count = 1200;
    await sendInTens(count, 'group burst', (content) => sendToGroupOverApi(ben, groupId, content));
    await bubble(a.page, `group burst ${count}`).waitFor({ timeout: 60_000 });
    await followsToTheBottom(a.page);
    await waitUntil('the group burst is read: no unread count on the group', async () => {
      const sessions = await call<{ groupId: string; unreadCount: number }[]>('GET', '/v1/message/sessionInfo/list', ann.token);
      return sessions.some((s) => s.groupId === groupId && s.unreadCount === 0);
    }, 30_000);
    await shot(a.page, 'b03-group-burst-shown');
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
  });
});
