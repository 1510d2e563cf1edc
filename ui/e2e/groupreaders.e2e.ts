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
    await sendToGroupOverApi(alice, groupId, TEXT);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('bob opens the chat and alice sees "Read by 1" with bob, carol not yet', async () => {
    const b = await openSession(browser);
    await login(b.page, bob);
    await openGroupChat(b.page, groupId);
    await b.page.locator('[data-testid=message]').filter({ hasText: TEXT }).waitFor();
    const [sent] = await call<{ id: string; content: string }[]>(
      'GET',
      `/v1/message/messagePush/history/list/page?groupId=${groupId}&pageSize=1`,
      alice.token,
    );
    assert.equal(sent.content, TEXT);
    await waitUntil('bob’s read to reach the server', async () => {
      const r = await call<{ readCount: number }>('GET', `/v1/chat/groupInfo/readers?groupId=${groupId}&messageId=${sent.id}`, alice.token);
      return r.readCount === 1;
    });

    const a = await openSession(browser);
    await login(a.page, alice);
    await openReaders(a.page, groupId, 'Read by');
    const dialog = a.page.getByTestId('readers-dialog');
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

  it('reads afresh on each opening, in Chinese at 375 px with the Night background', async () => {
    // carol opens the chat after the first list was shown: the next opening names her too.
    const c = await openSession(browser);
    await login(c.page, carol);
    await openGroupChat(c.page, groupId);
    await c.page.locator('[data-testid=message]').filter({ hasText: 'bob speaks' }).waitFor();

    const a = await openSession(browser, PHONE);
    const { page } = a;
    await login(page, alice);
    await setBackground(page, 'night');
    await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('zh_CN')));
    await page.reload();
    await page.getByTestId('me-name').waitFor();
    await page.getByTestId('back-button').click({ timeout: 2000 }).catch(() => undefined);
    await waitUntil('carol’s read in the list', async () => {
      await openReaders(page, groupId, '已读成员');
      const dialog = page.getByTestId('readers-dialog');
      await dialog.locator('h2').waitFor();
      const done = (await dialog.getByRole('heading', { name: '2 人已读' }).count()) === 1;
      if (!done) {
        await dialog.getByTestId('readers-close').click();
        await page.getByTestId('back-button').click({ timeout: 2000 }).catch(() => undefined);
      }
      return done;
    });
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
