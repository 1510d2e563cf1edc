// Favourites, the group-send assistant, the notifications and the chat assistant live behind the menu button of the
// list's header, out of the conversations' way; each has its address, so back, forward, a reload
// and a link reach it as they reach a chat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openFixedEntry, openSession, shot, waitUntil } from './harness';
import { befriendOverApi, rawCall, registerOverApi, sendOverApi, type Account } from './rest';

const PHONE = { width: 375, height: 740 };

const hash = (page: Page) => new URL(page.url()).hash;

describe('the menu of favourites, group send, notifications and the chat assistant', { skip: missingEnv || undefined }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;

  before(async () => {
    [alice, bob] = await Promise.all([registerOverApi(newMember('alicem')), registerOverApi(newMember('bobm'))]);
    await befriendOverApi(alice, bob);
    await sendOverApi(bob, alice, 'Menu test message');
    const carol = await registerOverApi(newMember('carolm'));
    await rawCall('POST', '/v1/chat/applyInfo/build', carol.token, { friendMemberId: alice.id, content: 'hello from carol' });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('keeps the list to conversations; the menu button counts unread notifications and opens each screen', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await login(page, alice);
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).waitFor();
    const list = page.locator('.sidebar-body');
    for (const name of ['My favourites', 'Group-send assistant', 'Notifications']) {
      assert.equal(await list.getByText(name, { exact: true }).count(), 0, `${name} is not in the list`);
    }
    const badge = page.getByTestId('menu-badge');
    await waitUntil('an unread notification on the menu button', async () => (await badge.count()) === 1);
    const unread = await badge.innerText();

    await page.getByTestId('open-menu').click();
    const menu = page.getByTestId('fixed-menu');
    assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), ['My favourites', 'Group-send assistant', `Notifications\n${unread}`, 'Chat assistant']);
    await shot(page, 'menu-open');
    await menu.getByRole('menuitem', { name: /Notifications/ }).click();
    await page.getByTestId('notices-view').waitFor();
    assert.equal(hash(page), '#/notices');

    await page.reload();
    await page.getByTestId('notices-view').waitFor();
    await openFixedEntry(page, '002');
    await page.getByTestId('mass-view').waitFor();
    assert.equal(hash(page), '#/massSend');
    await page.getByTestId('open-menu').click();
    assert.equal(await page.getByTestId('fixed-menu').locator('[aria-current=page]').innerText(), 'Group-send assistant');
    await page.keyboard.press('Escape');

    // A chat opened from the list takes the screen's place; back leaves both.
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    await page.locator(`[data-testid=chat-view][data-peer-id="${bob.id}"]`).waitFor();
    assert.equal(hash(page), `#/historyPage/${bob.id}`);
    await page.goBack();
    await waitUntil('the home address', async () => hash(page) === '#/');
    await page.getByTestId('chat-view').waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('mass-view').count(), 0);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('at 375 px a screen of the menu fills the page; the phone’s back and the back button return to the list', async () => {
    const session = await openSession(browser, PHONE);
    const { page } = session;
    await login(page, alice);
    const badge = page.getByTestId('menu-badge');
    await badge.waitFor();
    const pill = await badge.boundingBox();
    assert.ok(pill && pill.x >= 0 && pill.x + pill.width <= PHONE.width, 'the unread count sits inside the page');
    await page.getByTestId('open-menu').click();
    const menu = await page.getByTestId('fixed-menu').boundingBox();
    assert.ok(menu && menu.x >= 0 && menu.x + menu.width <= PHONE.width, 'the menu sits inside the page');
    assert.equal(await page.getByTestId('fixed-badge-003').innerText(), await badge.innerText(), 'the notifications entry counts them too');
    await shot(page, 'menu-375');
    await page.getByTestId('open-menu').click();
    await page.getByTestId('fixed-menu').waitFor({ state: 'detached' });
    await openFixedEntry(page, '001');
    await page.getByTestId('favourites-view').waitFor();
    assert.equal(await page.locator('.home').getAttribute('data-layout'), 'mobile-pane');
    assert.equal(hash(page), '#/favorite');

    await page.goBack();
    await page.getByTestId('session-list').waitFor();
    assert.equal(hash(page), '#/');
    await page.goForward();
    await page.getByTestId('favourites-view').waitFor();

    await page.getByTestId('back-button').click();
    await page.getByTestId('session-list').waitFor();
    await waitUntil('the address to leave favourites', async () => hash(page) === '#/');

    // A link to a screen opens it; leaving it by the back button lands on the home.
    await page.goto(page.url().replace(/#.*$/, '#/notices'));
    await page.getByTestId('notices-view').waitFor();
    await page.getByTestId('back-button').click();
    await page.getByTestId('session-list').waitFor();
    assert.equal(hash(page), '#/');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('names the menu in each language', async () => {
    const session = await openSession(browser, PHONE);
    const { page } = session;
    await login(page, alice);
    for (const [language, label, entries] of [
      ['zh_CN', '菜单', ['我的收藏', '群发助手', '通知', '聊天助手']],
      ['vi_VN', 'Menu', ['Mục yêu thích', 'Trợ lý gửi hàng loạt', 'Thông báo', 'Trợ lý trò chuyện']],
      ['en', 'Menu', ['My favourites', 'Group-send assistant', 'Notifications', 'Chat assistant']],
    ] as const) {
      await page.evaluate((lang) => localStorage.setItem('eventchat.language', JSON.stringify(lang)), language);
      await page.reload();
      await page.getByTestId('open-menu').click();
      assert.equal(await page.getByTestId('open-menu').getAttribute('aria-label'), label);
      const items = page.getByTestId('fixed-menu').getByRole('menuitem');
      assert.deepEqual(
        (await items.allInnerTexts()).map((text) => text.split('\n')[0]),
        entries,
      );
      await page.keyboard.press('Escape');
    }
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });
});
