// Who has read my group message: its sender opens the list from the message's menu, read afresh
// on each opening; a member has read the message once it opened the chat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { contrast, launchBrowser, login, missingEnv, newMember, openGroupChat, openSession, setBackground, shot, waitUntil } from './harness';
import { befriendOverApi, call, groupOverApi, registerOverApi, sendToGroupOverApi, type Account } from './rest';

const PHONE = { width: 375, height: 740 };
const TEXT = 'who has read this?';

async function openReaders(page: Page, groupId: string, menuItem: string): Promise<void> {
  await openGroupChat(page, groupId);
  const message = page.locator('[data-testid=message]').filter({ hasText: TEXT });
  await message.locator('.bubble').click({ button: 'right' });
  await page.getByTestId('message-menu').getByRole('menuitem', { name: menuItem, exact: true }).click();
  await page.getByTestId('readers-dialog').waitFor();
}

describe('who has read a group message', { skip: missingEnv || false, timeout: 150_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupId = '';
  let textId = '';
  let names: Map<string, string>;

  before(async () => {
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('alicer')),
      registerOverApi(newMember('bobr')),
      registerOverApi(newMember('carolr')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    ({ groupId, names } = await groupOverApi(alice, `Readers ${Date.now().toString(36)}`, [bob, carol]));
    ({ id: textId } = await call<{ id: string }>('POST', '/v1/message/send', alice.token, {
      uuid: `e2e-readers-${Date.now()}`,
      chatType: 'Group',
      groupId,
      msgType: 'Text',
      content: TEXT,
    }));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('alice’s open list shows "Read by 1" with bob once bob opens the chat, carol not yet', async () => {
    const a = await openSession(browser);
    await login(a.page, alice);
    await openReaders(a.page, groupId, 'Read by');
    const dialog = a.page.getByTestId('readers-dialog');
    await dialog.getByRole('heading', { name: 'Read by 0' }).waitFor();
    await dialog.getByText('Nobody has read it yet').waitFor();
    await dialog.getByTestId('readers-unread-count').filter({ hasText: 'Not read yet (2)' }).waitFor();

    const b = await openSession(browser);
    await login(b.page, bob);
    await openGroupChat(b.page, groupId);
    await b.page.locator('[data-testid=message]').filter({ hasText: TEXT }).waitFor();

    // The server tells alice (28), and her open list reads again.
    await dialog.getByRole('heading', { name: 'Read by 1' }).waitFor();
    const read = dialog.getByTestId('readers-read');
    await read.locator(`[data-testid=reader][data-member-id="${bob.id}"]`).filter({ hasText: names.get(bob.id!)! }).waitFor();
    await read.locator(`[data-testid=reader][data-member-id="${bob.id}"] .avatar`).waitFor();
    assert.equal(await read.locator(`[data-member-id="${carol.id}"]`).count(), 0, 'carol has not read it');
    await dialog.getByTestId('readers-unread-count').filter({ hasText: 'Not read yet (1)' }).waitFor();
    await dialog.getByTestId('readers-unread').locator(`[data-member-id="${carol.id}"]`).filter({ hasText: names.get(carol.id!)! }).waitFor();
    await shot(a.page, 'groupreaders-desktop');
    await dialog.getByTestId('readers-close').click();

    // Another member's message offers no list: only its sender asks.
    await sendToGroupOverApi(bob, groupId, 'bob speaks');
    const bobs = a.page.locator('[data-testid=message]').filter({ hasText: 'bob speaks' });
    await bobs.locator('.bubble').click({ button: 'right' });
    await a.page.getByTestId('message-menu').getByRole('menuitem', { name: 'Reply', exact: true }).waitFor();
    assert.equal(await a.page.getByTestId('message-menu').getByRole('menuitem', { name: 'Read by', exact: true }).count(), 0);
    await a.page.keyboard.press('Escape');

    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    await a.context.close();
    await b.context.close();
  });

  it('lists both readers in Chinese at 375 px with the Night background', async () => {
    const c = await openSession(browser);
    await login(c.page, carol);
    await openGroupChat(c.page, groupId);
    await c.page.locator('[data-testid=message]').filter({ hasText: 'bob speaks' }).waitFor();
    await waitUntil('carol’s read to reach the server', async () => {
      const r = await call<{ readCount: number }>('GET', `/v1/chat/groupInfo/readers?groupId=${groupId}&messageId=${textId}`, alice.token);
      return r.readCount === 2;
    });

    const a = await openSession(browser, PHONE);
    const { page } = a;
    await login(page, alice);
    await setBackground(page, 'night');
    await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('zh_CN')));
    await page.reload();
    // At 375 px Settings covers the list until closed.
    await page.getByTestId('back-button').click({ timeout: 5000 }).catch(() => undefined);
    await page.getByTestId('me-name').waitFor();
    await openReaders(page, groupId, '已读成员');
    await page.getByTestId('readers-dialog').getByRole('heading', { name: '2 人已读' }).waitFor();
    const dialog = page.getByTestId('readers-dialog');
    for (const member of [bob, carol]) {
      await dialog.getByTestId('readers-read').locator(`[data-member-id="${member.id}"]`).filter({ hasText: names.get(member.id!)! }).waitFor();
    }
    await dialog.getByText('全部成员已读').waitFor();
    const box = await dialog.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, `the dialog sits inside the page: ${JSON.stringify(box)}`);
    const [name, panel] = await dialog.locator('[data-testid=reader] .picker-name').first().evaluate((element) => [
      getComputedStyle(element).color,
      getComputedStyle(element.closest('.dialog')!).backgroundColor,
    ]);
    assert.ok(contrast(name, panel) >= 4.5, `name contrast ${contrast(name, panel).toFixed(2)}`);
    await shot(page, 'groupreaders-zh-375');
    await dialog.getByTestId('readers-close').click();
    await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('en')));
    assert.deepEqual(a.errors, []);
    assert.deepEqual(c.errors, []);
    await a.context.close();
    await c.context.close();
  });
});
