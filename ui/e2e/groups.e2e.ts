import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

/** A 1 x 1 PNG, for the image/video history. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

const member = (page: Page, id: string) => page.locator(`[data-testid=group-member][data-member-id="${id}"]`);

async function openGroupList(page: Page): Promise<void> {
  await page.getByTestId('tab-contacts').click();
  await page.getByTestId('open-groups').click();
  await page.getByTestId('group-list').waitFor();
}

async function memberAction(page: Page, id: string, label: string): Promise<void> {
  await member(page, id).getByTestId('group-member-more').click();
  await page.getByTestId('group-member-menu').getByRole('menuitem', { name: label }).click();
}

const suite = 'groups: create, roles, mute, remove, dissolve';

describe(suite, { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  const groupName = `Team ${Date.now().toString(36)}`;
  let groupId = '';

  before(async () => {
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('aliceg')),
      registerOverApi(newMember('bobg')),
      registerOverApi(newMember('carolg')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    browser = await launchBrowser();
    [a, b] = await Promise.all([openSession(browser), openSession(browser)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('creates a group with two friends and lists it as managed for the owner, joined for the member', async () => {
    await openGroupList(b.page);
    await b.page.getByTestId('group-list').getByText('No groups yet').waitFor();

    await openGroupList(a.page);
    await a.page.getByTestId('group-create-open').click();
    await a.page.getByTestId('group-create-next').click();
    await a.page.getByText('Group name cannot be empty').waitFor();
    const avatar = a.page.getByTestId('group-avatar-input');
    await avatar.setInputFiles({ name: 'moving.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await a.page.getByText('Animated GIF images are not supported').waitFor();
    await avatar.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PIXEL });
    await waitUntil('the avatar to upload', async () =>
      ((await a.page.getByTestId('group-create').locator('img.avatar').getAttribute('src')) ?? '').includes('/v1/sso/im/file/'),
    );
    await a.page.getByTestId('group-name').fill(groupName);
    await a.page.getByTestId('group-notice').fill('Welcome, team');
    await a.page.getByTestId('group-create-next').click();
    for (const friend of [bob, carol]) {
      await a.page.locator(`[data-testid=group-create-friends-friend][data-peer-id="${friend.id}"] input`).check();
    }
    await a.page.getByTestId('group-create-submit').click();

    // The new group's chat opens; its details are one click away.
    const chat = a.page.locator('[data-testid=chat-view][data-chat-type=Group]');
    await chat.waitFor();
    groupId = (await chat.getAttribute('data-peer-id')) ?? '';
    assert.match(groupId, /^\d+$/);
    assert.equal(new URL(a.page.url()).hash, `#/historyPage/${groupId}`);
    await a.page.getByTestId('chat-group-info').click();
    const details = a.page.locator('[data-testid=group-details][data-my-role=Owner]');
    await details.waitFor();
    assert.equal(await details.getAttribute('data-group-id'), groupId);
    await a.page.getByTestId('group-notice-text').getByText('Welcome, team').waitFor();
    await waitUntil('three members', async () => (await a.page.getByTestId('group-member').count()) === 3);
    assert.equal(await a.page.getByTestId('group-member').first().getAttribute('data-member-id'), alice.id);
    assert.equal(await a.page.getByTestId('group-member').first().getAttribute('data-role'), 'Owner');

    await openGroupList(a.page);
    await a.page.getByTestId('group-section-managed').locator(`[data-group-id="${groupId}"]`).waitFor();
    await shot(a.page, 'groups-list');
    await a.page.getByTestId('group-search').fill('no such group');
    await a.page.getByTestId('group-list').getByText('No group matches').waitFor();
    await a.page.keyboard.press('Escape');

    // The member's open list follows push 22.
    const joined = b.page.getByTestId('group-section-joined').locator(`[data-group-id="${groupId}"]`);
    await joined.waitFor();
    await joined.click();
    await b.page.locator(`[data-testid=group-details][data-my-role=Normal]`).waitFor();
    assert.equal(await b.page.getByTestId('group-mute-all').count(), 0, 'a normal member cannot mute the group');
    assert.equal(await b.page.getByTestId('group-dissolve').count(), 0, 'a normal member cannot dissolve');
    assert.equal(await b.page.getByTestId('group-member-more').count(), 0, 'a normal member acts on nobody');
    assert.equal(await b.page.getByTestId('group-member-open').count(), 0, 'nor opens member cards');
    await a.page.locator(`[data-testid=group-member][data-member-id="${carol.id}"] [data-testid=group-member-open]`).waitFor();
    await shot(a.page, 'groups-owner-details');

    await a.page.getByTestId('group-edit').click();
    await a.page.getByTestId('group-edit-notice').fill('Welcome, whole team');
    const saved = a.page.locator('.toast').filter({ hasText: 'Update successful' }).waitFor();
    await a.page.getByTestId('group-edit-save').click();
    await saved;
    await a.page.getByTestId('group-notice-text').getByText('Welcome, whole team').waitFor();
  });

  it('mutes the whole group: the member sees the mute state in the details and in the group chat', async () => {
    await a.page.getByTestId('group-mute-all').check();
    await a.page.locator('[data-testid=group-mute-option][data-minutes="10"]').click();
    await b.page.getByTestId('group-all-muted').waitFor();
    await b.page.getByTestId('group-start-chat').click();
    await b.page.locator(`[data-testid=chat-view][data-peer-id="${groupId}"][data-chat-type=Group]`).waitFor();
    const notice = b.page.getByTestId('group-muted-notice');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /You have been muted in this group/);
    assert.match((await notice.textContent()) ?? '', /All members are muted · 00:(09|10):\d\d/, 'a timed mute counts down');
    assert.equal(await b.page.getByTestId('composer').count(), 0);
    await shot(b.page, 'groups-muted-member');

    await a.page.getByTestId('group-mute-all').uncheck();
    await b.page.getByTestId('composer').waitFor();
    await b.page.getByTestId('chat-group-info').click();
    await b.page.getByTestId('group-details').waitFor();
  });

  it('mutes one member with a countdown shown to everyone and in place of the member’s composer', async () => {
    await memberAction(a.page, bob.id!, 'Mute');
    await shot(a.page, 'groups-mute-dialog');
    await a.page.locator('[data-testid=group-mute-option][data-minutes="10"]').click();
    for (const page of [a.page, b.page]) {
      const countdown = member(page, bob.id!).getByTestId('group-member-muted');
      await countdown.waitFor();
      assert.match((await countdown.textContent()) ?? '', /Muted 00:(09:\d\d|10:00)/);
    }
    await b.page.getByTestId('group-start-chat').click();
    const notice = b.page.locator('[data-testid=group-muted-notice][data-reason=memberMuted]');
    await notice.waitFor();
    assert.match((await notice.textContent()) ?? '', /Muted 00:(09:\d\d|10:00)/);

    await memberAction(a.page, bob.id!, 'Unmute');
    await b.page.getByTestId('composer').waitFor();
    await b.page.getByTestId('chat-group-info').click();
    await member(b.page, bob.id!).and(b.page.locator('[data-muted=N]')).waitFor();
  });

  it('lets the owner make a member admin, who then manages normal members only', async () => {
    await memberAction(a.page, bob.id!, 'Set as admin');
    await member(a.page, bob.id!).and(a.page.locator('[data-role=Admin]')).waitFor();
    await b.page.locator('[data-testid=group-details][data-my-role=Admin]').waitFor();
    await b.page.getByTestId('group-mute-all').waitFor();
    assert.equal(await b.page.getByTestId('group-dissolve').count(), 0, 'an admin cannot dissolve');
    assert.equal(await member(b.page, alice.id!).getByTestId('group-member-more').count(), 0, 'nor act on the owner');
    await member(b.page, carol.id!).getByTestId('group-member-more').click();
    const items = await b.page.getByTestId('group-member-menu').getByRole('menuitem').allTextContents();
    assert.deepEqual(items, ['Mute', 'Remove from group']);
    await shot(b.page, 'groups-admin-menu');
    await b.page.keyboard.press('Escape');
  });

  it('removes a member and invites her again', async () => {
    await memberAction(a.page, carol.id!, 'Remove from group');
    await a.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await waitUntil('carol to leave the owner list', async () => (await member(a.page, carol.id!).count()) === 0);
    await waitUntil('carol to leave the admin list', async () => (await member(b.page, carol.id!).count()) === 0);

    await a.page.getByTestId('group-invite').click();
    const friends = a.page.getByTestId('group-invite-friends-friend');
    assert.deepEqual(await friends.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-peer-id'))), [carol.id]);
    await friends.locator('input').check();
    await a.page.getByTestId('group-invite-submit').click();
    await member(b.page, carol.id!).waitFor();
  });

  it('transfers the ownership and gets it back', async () => {
    await memberAction(a.page, bob.id!, 'Transfer ownership');
    await a.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await a.page.locator('[data-testid=group-details][data-my-role=Admin]').waitFor();
    await b.page.locator('[data-testid=group-details][data-my-role=Owner]').waitFor();
    assert.equal(await a.page.getByTestId('group-dissolve').count(), 0);
    await memberAction(b.page, alice.id!, 'Transfer ownership');
    await b.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await a.page.locator('[data-testid=group-details][data-my-role=Owner]').waitFor();
  });

  it('dissolves the group: it leaves every open screen and list', async () => {
    await a.page.getByTestId('group-dissolve').click();
    await a.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await a.page.getByTestId('group-details').waitFor({ state: 'detached' });
    await b.page.getByTestId('group-details').waitFor({ state: 'detached' });
    await b.page.getByText(`The group ${groupName} has been dissolved`).first().waitFor();
    await openGroupList(b.page);
    await b.page.getByTestId('group-list').getByText('No groups yet').waitFor();
    await b.page.keyboard.press('Escape');
  });

  it('keeps a draft per conversation across switching and shows it in the recent chats', async () => {
    await sendOverApi(alice, bob, 'hello bob');
    await openChat(a.page, bob.id!);
    await a.page.getByTestId('composer').fill('half a thought');
    await openChat(a.page, carol.id!);
    assert.equal(await a.page.getByTestId('composer').inputValue(), '');
    await a.page.getByTestId('tab-chats').click();
    const bobRow = a.page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`);
    await bobRow.getByTestId('session-preview').getByText('[Draft]').waitFor();
    await bobRow.click();
    assert.equal(await a.page.getByTestId('composer').inputValue(), 'half a thought');
  });

  it('keeps a draft through a reload, and forgets it on logging out', async () => {
    const bobRow = a.page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`);
    await a.page.reload();
    await openChat(a.page, carol.id!);
    await a.page.getByTestId('tab-chats').click();
    await bobRow.getByTestId('session-preview').getByText('[Draft]').waitFor();
    await bobRow.click();
    assert.equal(await a.page.getByTestId('composer').inputValue(), 'half a thought');
    await a.page.getByRole('button', { name: 'Log out', exact: true }).click();
    await a.page.waitForURL(/#\/login/);
    assert.equal(await a.page.evaluate(() => localStorage.getItem('eventchat.drafts')), null, 'no draft stays in the browser');
    await login(a.page, alice);
    await bobRow.waitFor();
    assert.equal(await bobRow.getByTestId('session-preview').getByText('[Draft]').count(), 0);
  });

  it('lists the pictures of a conversation and opens them in the media viewer', async () => {
    await openChat(a.page, bob.id!);
    await a.page.getByTestId('chat-media-history').click();
    await a.page.getByTestId('media-history').getByText('No pictures or videos in this conversation yet').waitFor();
    await a.page.keyboard.press('Escape');
    await a.page.getByTestId('attach-media-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PIXEL });
    await waitUntil('the picture to be sent', async () =>
      ['sent', 'Unread', 'Read'].includes(
        (await a.page.locator('[data-testid=message]').last().getAttribute('data-status')) ?? '',
      ),
    );
    await a.page.getByTestId('chat-media-history').click();
    const item = a.page.getByTestId('media-history-item');
    await item.first().waitFor();
    assert.equal(await item.count(), 1);
    await item.getByTestId('media-picture').click();
    await a.page.getByTestId('lightbox').waitFor();
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
