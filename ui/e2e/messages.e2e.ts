import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  api,
  openChat,
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openSession,
  sendFromComposer,
  shot,
  waitUntil,
  type Session,
} from './harness';
import { befriendOverApi, call, registerOverApi, sendOverApi, type Account } from './rest';

const bubble = (page: Page, text: string) => page.getByTestId('message').filter({ hasText: text });

async function menuAction(page: Page, message: Locator, action: string): Promise<void> {
  await message.locator('.bubble').click({ button: 'right' });
  await page.getByTestId('message-menu').getByRole('menuitem', { name: action, exact: true }).click();
}

describe('message actions between friends', { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let c: Session;
  const alice = newMember('alice');
  const bob = newMember('bob');
  const carol = newMember('carol');
  let ann: Account;

  before(async () => {
    browser = await launchBrowser();
    [a, b, c] = await Promise.all([openSession(browser), openSession(browser), openSession(browser)]);
    let ben: Account, cat: Account;
    [ann, ben, cat] = await Promise.all([registerOverApi(alice), registerOverApi(bob), registerOverApi(carol)]);
    await befriendOverApi(ann, ben);
    await befriendOverApi(ann, cat);
    await Promise.all([login(a.page, alice), login(b.page, bob), login(c.page, carol)]);
    await openChat(a.page, bob.id!);
    await openChat(b.page, alice.id!);
  });

  after(async () => {
    await browser?.close();
  });

  it('edits a message: the composer switches to edit mode, B sees the new text live', async () => {
    const mine = await sendFromComposer(a.page, 'the first version');
    await bubble(b.page, 'the first version').waitFor();
    await menuAction(a.page, mine, 'Edit');
    await a.page.getByTestId('composer-edit').waitFor();
    assert.equal(await a.page.getByTestId('composer').inputValue(), 'the first version');
    await a.page.getByTestId('composer').fill('the second version');
    await shot(a.page, 'm01-edit-mode');
    await a.page.getByTestId('composer').press('Enter');
    await a.page.getByTestId('composer-edit').waitFor({ state: 'detached' });
    for (const page of [a.page, b.page]) {
      const edited = bubble(page, 'the second version');
      await edited.getByTestId('edited-label').waitFor();
      assert.equal(await bubble(page, 'the first version').count(), 0);
    }
    await shot(b.page, 'm02-edited-live');
  });

  it('replies to a message: the quote shows above the composer, then in the bubble on both sides', async () => {
    const parent = bubble(b.page, 'the second version');
    await menuAction(b.page, parent, 'Reply');
    await b.page.getByTestId('composer-reply').filter({ hasText: 'the second version' }).waitFor();
    await b.page.getByTestId('composer').fill('a reply to that');
    await shot(b.page, 'm03-reply-bar');
    await b.page.getByTestId('composer').press('Enter');
    await b.page.getByTestId('composer-reply').waitFor({ state: 'detached' });
    for (const page of [b.page, a.page]) {
      const reply = bubble(page, 'a reply to that');
      await reply.getByTestId('reply-quote').filter({ hasText: 'the second version' }).waitFor();
    }
    await bubble(a.page, 'a reply to that').getByTestId('reply-quote').click();
    await a.page.locator('.row-flash').filter({ hasText: 'the second version' }).waitFor();
    await shot(a.page, 'm04-reply-quote');
  });

  it('recalls a message from the keyboard menu: both sides see the recall line', async () => {
    const mine = await sendFromComposer(a.page, 'words to take back');
    await bubble(b.page, 'words to take back').waitFor();
    await mine.hover();
    await mine.getByTestId('message-more').focus();
    await a.page.keyboard.press('Enter');
    const menu = a.page.getByTestId('message-menu');
    await menu.waitFor();
    await waitUntil('the first menu item to take the focus', () =>
      menu.getByRole('menuitem', { name: 'Reply' }).evaluate((element) => element === document.activeElement),
    );
    await a.page.keyboard.press('ArrowDown');
    await a.page.keyboard.press('ArrowDown');
    assert.equal(await a.page.evaluate(() => document.activeElement?.textContent), 'Recall');
    await a.page.keyboard.press('Enter');
    await a.page.getByTestId('recall-line').filter({ hasText: 'You recalled a message' }).waitFor();
    await b.page.getByTestId('recall-line').filter({ hasText: `${alice.account} recalled a message` }).waitFor();
    assert.equal(await bubble(b.page, 'words to take back').count(), 0);
    await shot(b.page, 'm05-recalled');
  });

  it('deletes for everyone after a confirmation, a cancel says so; gone on both sides', async () => {
    const mine = await sendFromComposer(a.page, 'a message to delete');
    await bubble(b.page, 'a message to delete').waitFor();
    await menuAction(a.page, mine, 'Delete for everyone');
    await a.page.getByTestId('confirm-dialog').waitFor();
    await a.page.getByTestId('confirm-cancel').click();
    await a.page.getByRole('status').filter({ hasText: 'deletion cancelled' }).waitFor();
    assert.equal(await mine.count(), 1);
    await menuAction(a.page, mine, 'Delete for everyone');
    await shot(a.page, 'm06-delete-confirm');
    await a.page.getByTestId('confirm-ok').click();
    await bubble(a.page, 'a message to delete').waitFor({ state: 'detached' });
    await bubble(b.page, 'a message to delete').waitFor({ state: 'detached' });
  });

  it('forwards two selected messages to C, who sees them labelled Forwarded', async () => {
    const one = await sendFromComposer(a.page, 'forward me first');
    await sendFromComposer(a.page, 'forward me second');
    await menuAction(a.page, one, 'Select');
    await a.page.getByTestId('selection-bar').waitFor();
    await one.getByTestId('message-check').uncheck();
    await a.page.getByTestId('selection-forward').click();
    await a.page.getByRole('alert').filter({ hasText: 'Please select the records to forward' }).waitFor();
    await a.page.getByTestId('recall-line').first().getByTestId('message-check').click();
    await a.page.getByRole('alert').filter({ hasText: 'This message cannot be forwarded yet' }).waitFor();
    await one.getByTestId('message-check').check();
    await bubble(a.page, 'forward me second').getByTestId('message-check').check();
    await a.page.getByTestId('selection-count').filter({ hasText: '2/10 selected' }).waitFor();
    await shot(a.page, 'm07-selection');
    await a.page.getByTestId('selection-forward').click();
    const picker = a.page.getByTestId('forward-picker');
    await picker.getByTestId('picker-search').fill(carol.account);
    await picker.locator(`[data-testid=picker-item][data-peer-id="${carol.id}"] input`).check();
    await shot(a.page, 'm08-forward-picker');
    await picker.getByTestId('picker-confirm').click();
    await picker.waitFor({ state: 'detached' });
    await a.page.getByTestId('selection-bar').waitFor({ state: 'detached' });

    await c.page.getByTestId('tab-chats').click();
    await c.page.locator(`[data-testid=session-item][data-peer-id="${alice.id}"]`).click();
    for (const text of ['forward me first', 'forward me second']) {
      await bubble(c.page, text).getByTestId('forwarded-label').filter({ hasText: 'Forwarded' }).waitFor();
    }
    const order = await c.page.getByTestId('message-text').allTextContents();
    assert.ok(order.indexOf('forward me first') < order.indexOf('forward me second'), 'the order of the chat is kept');
    await shot(c.page, 'm09-forwarded');
  });

  it('searches the loaded messages of a chat and shows a result in place', async () => {
    await a.page.getByTestId('chat-search-toggle').click();
    await a.page.getByTestId('chat-search').fill('FORWARD me');
    await a.page.getByTestId('chat-search-count').filter({ hasText: 'Matches: 2' }).waitFor();
    assert.equal(await a.page.getByTestId('message').count(), 2);
    assert.equal(await a.page.locator('[data-testid=message] mark').first().textContent(), 'forward me');
    await shot(a.page, 'm10-search');
    await a.page.getByTestId('show-in-chat').first().click();
    await a.page.getByTestId('chat-search').waitFor({ state: 'detached' });
    await a.page.locator('.row-flash').filter({ hasText: 'forward me first' }).waitFor();
    assert.ok((await a.page.getByTestId('message').count()) > 2);
  });

  it('shares a contact card from the + menu; the card opens the member info', async () => {
    await a.page.getByTestId('composer-plus').click();
    await a.page.getByTestId('composer-menu').getByRole('menuitem', { name: 'Share a contact card' }).click();
    const picker = a.page.getByTestId('share-picker');
    await picker.getByTestId('picker-search').fill(carol.account.slice(0, 6));
    await picker.locator(`[data-testid=picker-item][data-peer-id="${carol.id}"]`).click();
    await picker.waitFor({ state: 'detached' });
    const card = b.page.locator(`[data-testid=contact-card][data-member-id="${carol.id}"]`);
    await card.filter({ hasText: `@${carol.account}` }).waitFor();
    await a.page.locator(`[data-testid=contact-card][data-member-id="${carol.id}"]`).waitFor();
    await shot(b.page, 'm11-contact-card');
    await card.click();
    await b.page.locator(`[data-testid=member-info][data-member-id="${carol.id}"]`).getByText(`@${carol.account}`).waitFor();
    await b.page.getByText('Not your friend yet').waitFor();
    await openChat(b.page, alice.id!);
  });

  it('deletes for me only: gone on my side, still on the other', async () => {
    const theirs = bubble(b.page, 'forward me second');
    await menuAction(b.page, theirs, 'Delete for me');
    await b.page.getByTestId('confirm-ok').click();
    await theirs.waitFor({ state: 'detached' });
    await b.page.waitForTimeout(300);
    assert.equal(await bubble(a.page, 'forward me second').count(), 1);
  });

  it('clears the history after a confirmation, live on my other device too; the friend keeps it', async () => {
    const other = await openSession(browser);
    try {
      await login(other.page, bob);
      await openChat(other.page, alice.id!);
      await bubble(other.page, 'a reply to that').waitFor();
      await b.page.getByTestId('chat-menu').click();
      await b.page.getByTestId('chat-menu-list').getByRole('menuitem', { name: 'Clear chat history' }).click();
      await b.page.getByTestId('confirm-cancel').click();
      await b.page.getByRole('status').filter({ hasText: 'clear history cancelled' }).waitFor();
      await b.page.getByTestId('chat-menu').click();
      await b.page.getByTestId('chat-menu-list').getByRole('menuitem', { name: 'Clear chat history' }).click();
      await b.page.getByTestId('confirm-ok').click();
      for (const page of [b.page, other.page]) {
        await waitUntil('the chat to be empty', async () => (await page.getByTestId('message').count()) === 0);
      }
      await shot(other.page, 'm12-cleared-other-device');
      assert.ok((await a.page.getByTestId('message').count()) > 0, 'the friend keeps the history');
      assert.deepEqual(other.errors, []);
    } finally {
      await other.context.close();
    }
  });

  it('opens the message menu by a long press on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
    try {
      const phone = await context.newPage();
      phone.setDefaultTimeout(10_000);
      await login(phone, alice);
      await phone.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
      const target = bubble(phone, 'the second version').first().locator('.bubble');
      await target.waitFor();
      const box = (await target.boundingBox())!;
      const at = { pointerType: 'touch', clientX: box.x + 10, clientY: box.y + 10, bubbles: true };
      await target.dispatchEvent('pointerdown', at);
      await phone.waitForTimeout(700);
      await target.dispatchEvent('pointerup', at);
      await phone.getByTestId('message-menu').getByRole('menuitem', { name: 'Edit' }).waitFor();
      await shot(phone, 'm13-phone-menu');
      await phone.keyboard.press('Escape');
      await phone.getByTestId('message-menu').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('fetches a quoted message that is not loaded, and shows a placeholder once it is deleted', async () => {
    const parent = await sendFromComposer(a.page, 'an old message far above');
    const parentId = (await parent.getAttribute('data-message-id'))!;
    await api(a.page, 'POST', '/v1/message/send', {
      uuid: `bulk-${parentId}`,
      chatType: 'Friend',
      to: bob.id,
      msgType: 'Text',
      content: 'bulk 0',
    });
    for (let i = 1; i <= 22; i++) {
      await api(a.page, 'POST', '/v1/message/send', {
        uuid: `bulk-${parentId}-${i}`,
        chatType: 'Friend',
        to: bob.id,
        msgType: 'Text',
        content: `bulk ${i}`,
      });
    }
    await api(b.page, 'PUT', '/v1/message/reply', {
      uuid: `reply-${parentId}`,
      chatType: 'Friend',
      to: alice.id,
      msgType: 'Reply',
      content: 'answering the old one',
      parentMessageId: parentId,
    });
    await a.page.reload();
    await a.page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    const quote = bubble(a.page, 'answering the old one').getByTestId('reply-quote');
    await quote.filter({ hasText: 'an old message far above' }).waitFor();
    assert.equal(
      await a.page.locator(`[data-testid=message][data-message-id="${parentId}"]`).count(),
      0,
      'the parent is not in the loaded page',
    );
    assert.equal(await quote.isDisabled(), true, 'a quote of a message not loaded does not jump');
    await api(a.page, 'DELETE', '/v1/chat/friendInfo/deleteRemoteFriendMessage', {
      friendMemberId: bob.id,
      messageIds: [parentId],
      deleteMessageType: 'Bilateral',
    });
    await b.page
      .getByTestId('reply-quote')
      .filter({ hasText: 'The original message was deleted' })
      .waitFor();
    await shot(b.page, 'm14-parent-deleted');
  });

  it('shows my message Read once the friend deletes it unread, for itself only', async () => {
    const dan = await registerOverApi(newMember('dave'));
    await befriendOverApi(ann, dan);
    await sendOverApi(ann, dan, 'dave reads this first');
    await sendOverApi(ann, dan, 'dave deletes this unread');
    await openChat(a.page, dan.id!);
    const status = (text: string) => bubble(a.page, text).getAttribute('data-status');
    await waitUntil('both messages to be shown Unread', async () =>
      (await status('dave reads this first')) === 'Unread' && (await status('dave deletes this unread')) === 'Unread',
    );
    const page = await call<{ id: string; content: string }[]>(
      'GET',
      `/v1/message/messagePush/history/list/page?friendMemberId=${ann.id}&pageSize=10`,
      dan.token,
    );
    const gone = page.find((m) => m.content === 'dave deletes this unread');
    assert.ok(gone, 'dave has the message');
    await call('POST', '/v1/message/deleteMessage', dan.token, { messageIds: [gone.id] });
    await a.page.locator('[data-testid=message][data-status=Read]').filter({ hasText: 'dave deletes this unread' }).waitFor();
    assert.equal(await status('dave reads this first'), 'Unread', 'the older message is still unread');
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    assert.deepEqual(c.errors, []);
  });
});
