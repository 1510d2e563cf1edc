import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
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
import { befriendOverApi, call, groupOverApi, registerOverApi, type Account } from './rest';

/** The server's text of a send over the group's rate (429). */
const RATE_TEXT = 'you are sending messages too fast in this group, try again in a moment';
/** The spec's text of a refused send in a muted group (code 30021). */
const MUTED_TEXT = 'You have been muted in this group, you can chat with the group owner to apply to open speech!';

const sessionItem = (page: Page, id: string) => page.locator(`[data-testid=session-item][data-peer-id="${id}"]`);
const messageWith = (page: Page, text: string) => page.locator('[data-testid=message]').filter({ hasText: text });

async function menuAction(page: Page, message: Locator, action: string): Promise<void> {
  await message.locator('.bubble').click({ button: 'right' });
  await page.getByTestId('message-menu').getByRole('menuitem', { name: action, exact: true }).click();
}

describe('group chat between members', { skip: missingEnv || false, timeout: 150_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupId = '';
  let names: Map<string, string>;

  before(async () => {
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('alicegc')),
      registerOverApi(newMember('bobgc')),
      registerOverApi(newMember('carolgc')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    ({ groupId, names } = await groupOverApi(alice, `Chat ${Date.now().toString(36)}`, [bob, carol]));
    browser = await launchBrowser();
    [a, b] = await Promise.all([openSession(browser), openSession(browser)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('delivers live, counts unread, marks a mention until opened, reads on open', async () => {
    await openGroupChat(a.page, groupId);
    await sessionItem(b.page, groupId).waitFor();

    await sendFromComposer(a.page, 'hello team');
    const item = sessionItem(b.page, groupId);
    await item.getByTestId('unread-badge').filter({ hasText: /^1$/ }).waitFor();
    await item.getByTestId('session-preview').filter({ hasText: 'hello team' }).waitFor();

    // A mention picked in the composer reaches bob as an AtText naming him.
    const composer = a.page.getByTestId('composer');
    await composer.fill('look @');
    const picker = a.page.getByTestId('mention-picker');
    await picker.locator('[data-testid=mention-option][data-member-id="0000000000000000000"]').waitFor();
    await picker.locator(`[data-testid=mention-option][data-member-id="${bob.id}"]`).click();
    await composer.press('End');
    await composer.pressSequentially('here');
    await composer.press('Enter');
    const mention = `@${names.get(bob.id!)} here`;
    await a.page.locator('[data-testid=message][data-type=AtText]:not([data-status=sending])').filter({ hasText: mention }).waitFor();
    await item.getByTestId('at-marker').waitFor();
    await item.getByTestId('unread-badge').filter({ hasText: /^2$/ }).waitFor();
    await shot(b.page, 'groupchat-01-unread-mention');

    await openGroupChat(b.page, groupId);
    const hello = messageWith(b.page, 'hello team');
    await hello.waitFor();
    await hello.getByTestId('message-sender').filter({ hasText: names.get(alice.id!)! }).waitFor();
    await b.page.locator('[data-testid=message][data-type=AtText]').filter({ hasText: mention }).waitFor();
    await item.getByTestId('unread-badge').waitFor({ state: 'detached' });
    await item.getByTestId('at-marker').waitFor({ state: 'detached' });
    await waitUntil('the server to count the group read', async () => {
      const list = await call<{ id: string; unreadCount: number; atCount?: number }[]>('GET', '/v1/message/sessionInfo/list', bob.token);
      const group = list.find((session) => session.id === groupId);
      return !!group && group.unreadCount === 0 && !group.atCount;
    });

    // Bob answers live.
    await sendFromComposer(b.page, 'hi from bob');
    await messageWith(a.page, 'hi from bob').waitFor();
  });

  it('shows the muted group to a Normal member and refuses a send with the spec text', async () => {
    await call('PUT', '/v1/chat/groupInfo/modify', alice.token, { groupId, muteAll: true });
    const notice = b.page.locator('[data-testid=group-muted-notice][data-reason=groupMuted]');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /All members are muted/);
    assert.ok(((await notice.textContent()) ?? '').includes(MUTED_TEXT));
    await b.page.getByTestId('composer').waitFor({ state: 'detached' });
    await shot(b.page, 'groupchat-02-muted');
    const refused = await b.page.evaluate(
      async ({ groupId }) => {
        const auth = JSON.parse(localStorage.getItem('eventchat.auth')!);
        const response = await fetch('/v1/message/send', {
          method: 'POST',
          headers: { Authorization: `Bearer ${auth.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ uuid: `gm-${Date.now()}`, chatType: 'Group', groupId, msgType: 'Text', content: 'muted?' }),
        });
        return (await response.json()) as { code: string; info: string };
      },
      { groupId },
    );
    assert.equal(refused.code, '30021');
    assert.equal(refused.info, MUTED_TEXT);
    // The owner still speaks.
    await sendFromComposer(a.page, 'owner speaks');
    await messageWith(b.page, 'owner speaks').waitFor();

    await call('PUT', '/v1/chat/groupInfo/modify', alice.token, { groupId, muteAll: false });
    await b.page.getByTestId('composer').waitFor();
  });

  it('refuses a send over the group’s rate with the server’s text', async () => {
    await call('PUT', '/v1/chat/groupInfo/modify', alice.token, { groupId, sendRate: 'FivePerMinute' });
    await waitUntil('the rate to reach bob', async () => {
      const group = await call<{ sendRate: string }>('GET', `/v1/chat/groupInfo/getGroupInfoByGroupId?groupId=${groupId}`, bob.token);
      return group.sendRate === 'FivePerMinute';
    });
    // Six in a row: at most five fit in a minute, so one at least is refused.
    for (let i = 1; i <= 6; i++) {
      await sendFromComposer(b.page, `quick ${i}`);
    }
    await b.page.locator('[data-testid=message][data-status=failedSent]').filter({ hasText: 'quick' }).first().waitFor();
    await b.page.locator('.toast[role=alert]').filter({ hasText: RATE_TEXT }).waitFor();
    await call('PUT', '/v1/chat/groupInfo/modify', alice.token, { groupId, sendRate: 'NoLimit' });
  });

  it('pins a message for every member; unpinning removes the bar', async () => {
    await menuAction(a.page, messageWith(a.page, 'hi from bob'), 'Pin');
    const bar = b.page.getByTestId('pinned-bar');
    await bar.getByTestId('pinned-item').filter({ hasText: 'hi from bob' }).waitFor();
    await a.page.getByTestId('pinned-bar').waitFor();
    // A Normal member sees the pin but has no unpin.
    assert.equal(await bar.getByTestId('pinned-unpin').count(), 0);
    await shot(b.page, 'groupchat-03-pinned');
    await a.page.getByTestId('pinned-unpin').click();
    await bar.waitFor({ state: 'detached' });
    await menuAction(a.page, messageWith(a.page, 'hi from bob'), 'Pin');
    await bar.waitFor();
  });

  it('lets the owner delete a member’s message for everyone', async () => {
    await sendFromComposer(b.page, 'oops wrong chat');
    const theirs = messageWith(a.page, 'oops wrong chat');
    await theirs.waitFor();
    // Bob (Normal) may not delete for everyone.
    await messageWith(b.page, 'hello team').locator('.bubble').click({ button: 'right' });
    assert.equal(await b.page.getByTestId('message-menu').getByRole('menuitem', { name: 'Delete for everyone' }).count(), 0);
    await b.page.keyboard.press('Escape');
    await menuAction(a.page, theirs, 'Delete for everyone');
    await a.page.getByTestId('confirm-ok').click();
    await theirs.waitFor({ state: 'detached' });
    await messageWith(b.page, 'oops wrong chat').waitFor({ state: 'detached' });
  });

  it('shows an event line naming the members when one is removed', async () => {
    await call('PUT', '/v1/chat/groupInfo/deleteGroupMember', alice.token, { groupId, memberIds: [carol.id] });
    const carolName = names.get(carol.id!)!;
    for (const page of [a.page, b.page]) {
      const line = page.getByTestId('event-line').filter({ hasText: carolName }).last();
      await line.waitFor();
      const text = (await line.textContent()) ?? '';
      assert.ok(!text.includes('@['), `unresolved mention in "${text}"`);
      assert.equal(text.trim(), `${names.get(alice.id!)} removed ${carolName} from the group`);
    }
    await shot(b.page, 'groupchat-04-event-line');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });

  it('clears a member’s group history live on its connections (29), the others keep theirs', async () => {
    await messageWith(b.page, 'hello team').waitFor();
    await call('POST', '/v1/message/clearHistory', bob.token, { chatType: 'Group', groupId });
    await messageWith(b.page, 'hello team').waitFor({ state: 'detached' });
    await messageWith(b.page, 'owner speaks').waitFor({ state: 'detached' });
    await messageWith(a.page, 'hello team').waitFor();
    // The header menu clears too.
    await sendFromComposer(a.page, 'after the clear');
    await messageWith(b.page, 'after the clear').waitFor();
    await b.page.getByTestId('chat-menu').click();
    await b.page.getByTestId('chat-menu-list').getByRole('menuitem', { name: 'Clear chat history' }).click();
    await b.page.getByTestId('confirm-ok').click();
    await messageWith(b.page, 'after the clear').waitFor({ state: 'detached' });
  });

  it('turns a Normal member’s invitation into a request the owner accepts', async () => {
    const dave = await registerOverApi(newMember('davegc'));
    await befriendOverApi(bob, dave);
    await b.page.reload();
    await b.page.getByTestId('me-name').waitFor();
    await openGroupChat(b.page, groupId);
    await b.page.getByTestId('chat-group-info').click();
    await b.page.locator('[data-testid=group-details][data-my-role=Normal]').waitFor();
    // A Normal member sees no requests; its invitation is sent as one.
    assert.equal(await b.page.getByTestId('group-requests').count(), 0);
    await b.page.getByTestId('group-invite').click();
    await b.page.locator(`[data-testid=group-invite-friends-friend][data-peer-id="${dave.id}"] input`).check();
    await b.page.getByTestId('group-invite-submit').click();
    await b.page.getByText('Request sent: the owner or an admin will review it').waitFor();
    await a.page.getByTestId('chat-group-info').click();
    const request = a.page.locator(`[data-testid=group-request][data-member-id="${dave.id}"]`);
    await request.waitFor();
    await request.getByTestId('group-request-accept').click();
    await request.waitFor({ state: 'detached' });
    await a.page.locator(`[data-testid=group-member][data-member-id="${dave.id}"]`).waitFor();
  });

  it('forwards a friend chat message into the group', async () => {
    await openChat(a.page, bob.id!);
    const original = await sendFromComposer(a.page, 'worth sharing with the group');
    await menuAction(a.page, original, 'Forward');
    const picker = a.page.getByTestId('forward-picker');
    await picker.locator(`[data-testid=picker-item][data-peer-id="${groupId}"] input`).check();
    await picker.getByTestId('picker-confirm').click();
    await picker.waitFor({ state: 'detached' });
    await openGroupChat(b.page, groupId);
    const forwarded = messageWith(b.page, 'worth sharing with the group');
    await forwarded.getByTestId('forwarded-label').waitFor();
    await forwarded.getByTestId('message-sender').filter({ hasText: names.get(alice.id!)! }).waitFor();
  });
});
