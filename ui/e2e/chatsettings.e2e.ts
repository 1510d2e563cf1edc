// Settings that change the chat (spec accounts.md section 2, settings): message notifications,
// message time, image preview window, multi-device read sync, font size, background; and the
// System-level account shown as the activity administrator (section 3).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, waitUntil, type Session } from './harness';
import { adminOverApi, befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/** Records the notifications the page raises (the browser's own are not visible headless). */
const RECORD_NOTIFICATIONS = `
  window.__notifications = [];
  const Real = window.Notification;
  function Recorder(title, options) {
    window.__notifications.push({ title, body: options && options.body });
    return { close() {}, onclick: null };
  }
  Object.defineProperty(Recorder, 'permission', { get: () => Real.permission });
  Recorder.requestPermission = () => Real.requestPermission();
  window.Notification = Recorder;
`;

async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

async function setSwitch(page: Page, key: string, on: boolean): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings').waitFor();
  const box = page.getByTestId(`pref-${key}`);
  if (on) await box.check();
  else await box.uncheck();
}

const notifications = (page: Page) => page.evaluate(() => (window as unknown as { __notifications: unknown[] }).__notifications.length);
const badge = (page: Page, peerId: string) =>
  page.locator(`[data-testid=session-item][data-peer-id="${peerId}"] [data-testid=unread-badge]`);

describe('settings that change the chat', { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b1: Session;
  let b2: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;

  before(async () => {
    [alice, bob, carol] = await Promise.all([
      registerOverApi(newMember('alices')),
      registerOverApi(newMember('bobs')),
      registerOverApi(newMember('carols')),
    ]);
    await befriendOverApi(alice, bob);
    await befriendOverApi(carol, bob);
    browser = await launchBrowser();
    [a, b1, b2] = await Promise.all([openSession(browser), openSession(browser), openSession(browser)]);
    await b1.context.grantPermissions(['notifications'], { origin: BASE_URL });
    await b1.context.addInitScript(RECORD_NOTIFICATIONS);
    await Promise.all([login(a.page, alice), login(b1.page, bob), login(b2.page, bob)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('message notifications on: a hidden tab counts new messages in its title and raises a notification; off: neither', async () => {
    const page = b1.page;
    const title = await page.title();
    await setHidden(page, true);
    await sendOverApi(alice, bob, 'while you were away');
    await waitUntil('the title to count the message', async () => (await page.title()) === `(1) ${title}`);
    assert.equal(await notifications(page), 1);
    await setHidden(page, false);
    await openChat(page, alice.id!);
    await waitUntil('the title to lose its count', async () => !(await page.title()).startsWith('('));

    await setSwitch(page, 'notifications', false);
    await openChat(page, alice.id!);
    const chatTitle = await page.title();
    await setHidden(page, true);
    await sendOverApi(alice, bob, 'quietly');
    await page.locator('[data-testid=message]').getByText('quietly').waitFor();
    assert.equal(await page.title(), chatTitle);
    assert.equal(await notifications(page), 1);
    await setHidden(page, false);
  });

  it('show message time: the times go and come back', async () => {
    const page = b1.page;
    await openChat(page, alice.id!);
    const time = page.locator('[data-testid=message] .message-meta time').first();
    await time.waitFor();
    await setSwitch(page, 'showMessageTime', false);
    await openChat(page, alice.id!);
    await time.waitFor({ state: 'hidden' });
    await setSwitch(page, 'showMessageTime', true);
    await openChat(page, alice.id!);
    await time.waitFor({ state: 'visible' });
  });

  it('font size changes the message text and background the chat column', async () => {
    const page = b1.page;
    const style = () =>
      page.locator('[data-testid=chat-view]').evaluate((chat) => ({
        font: getComputedStyle(chat.querySelector('.bubble')!).fontSize,
        background: getComputedStyle(chat).backgroundColor,
      }));
    for (const [size, px] of [
      ['0', '13px'],
      ['2', '17px'],
      ['1', '15px'],
    ]) {
      await page.getByTestId('open-settings').click();
      await page.getByTestId(`font-${size}`).check();
      await openChat(page, alice.id!);
      await waitUntil(`the font size ${px}`, async () => (await style()).font === px);
    }
    await page.getByTestId('open-settings').click();
    await page.getByTestId('background').selectOption('mint');
    await openChat(page, alice.id!);
    await waitUntil('the mint background', async () => (await style()).background === 'rgb(223, 242, 232)');
    await shot(page, 'chatsettings-mint');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('background').selectOption('default');
  });

  it('image preview: in the page by default, in a new window when the setting is on', async () => {
    await openChat(a.page, bob.id!);
    await a.page.getByTestId('attach-media-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PIXEL });
    const page = b1.page;
    await openChat(page, alice.id!);
    const picture = page.getByTestId('media-picture').last();
    await picture.click();
    await page.getByTestId('lightbox').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('lightbox').waitFor({ state: 'detached' });

    await setSwitch(page, 'imagePreviewWindow', true);
    await openChat(page, alice.id!);
    const opened = b1.context.waitForEvent('page');
    await page.getByTestId('media-picture').last().click();
    const popup = await opened;
    await waitUntil('the picture in the new window', async () => popup.url().includes('/v1/sso/im/file/'));
    assert.equal(await page.getByTestId('lightbox').count(), 0);
    await popup.close();
    await setSwitch(page, 'imagePreviewWindow', false);
  });

  it('multi-device read sync: on, a read on one device clears the other’s badge; off, it stays', async () => {
    // b1 shows settings (no chat open), b2 the chat list.
    await setSwitch(b1.page, 'readSync', true);
    await b2.page.getByTestId('tab-chats').click();
    await sendOverApi(alice, bob, 'sync one');
    await badge(b2.page, alice.id!).waitFor();
    await openChat(b1.page, alice.id!);
    await badge(b2.page, alice.id!).waitFor({ state: 'detached' });

    await setSwitch(b1.page, 'readSync', false);
    await b2.page.getByTestId('open-settings').click();
    await waitUntil('the other device to learn the setting', async () => !(await b2.page.getByTestId('pref-readSync').isChecked()));
    await b2.page.getByTestId('tab-chats').click();
    await sendOverApi(alice, bob, 'sync two');
    await badge(b2.page, alice.id!).waitFor();
    await openChat(b1.page, alice.id!);
    // Alice sees the read receipt, pushed with the read to every device of bob.
    await openChat(a.page, bob.id!);
    await a.page.locator('[data-testid=message][data-status=Read]').filter({ hasText: 'sync two' }).waitFor();
    await b1.page.getByTestId('tab-chats').click();
    await b1.page.getByTestId('open-settings').click();
    await badge(b1.page, alice.id!).waitFor({ state: 'detached' });
    assert.equal(await badge(b2.page, alice.id!).textContent(), '1', 'the other device keeps its unread badge');
    await shot(b2.page, 'chatsettings-readsync-off');
    await setSwitch(b1.page, 'readSync', true);
  });

  it('shows the System-level account as the activity administrator, and keeps it out of the friend pickers', async () => {
    await adminOverApi('PUT', '/v1/admin/member/level', { tenant: 'x0001', account: carol.account, level: 'System' });
    await sendOverApi(carol, bob, 'an event is coming');
    const page = b2.page;
    await page.reload();
    await page.getByTestId('tab-chats').click();
    const item = page.locator(`[data-testid=session-item][data-peer-id="${carol.id}"]`);
    await item.getByText('Activity administrator').waitFor();
    await item.locator('[data-avatar=system]').waitFor();
    await page.getByTestId('tab-contacts').click();
    const friend = page.locator(`[data-testid=friend-item][data-peer-id="${carol.id}"]`);
    await friend.getByText('Activity administrator').waitFor();
    await friend.locator('[data-avatar=system]').waitFor();
    await friend.click();
    await page.locator(`[data-testid=chat-view][data-peer-id="${carol.id}"]`).getByRole('heading', { name: 'Activity administrator' }).waitFor();
    await page.locator('[data-testid=chat-peer-info] [data-avatar=system]').waitFor();
    await shot(page, 'chatsettings-system-account');

    await page.getByTestId('tab-contacts').click();
    await page.getByTestId('open-groups').click();
    await page.getByTestId('group-create-open').click();
    await page.getByTestId('group-name').fill('Picker check');
    await page.getByTestId('group-create-next').click();
    await page.locator(`[data-testid=group-create-friends-friend][data-peer-id="${alice.id}"]`).waitFor();
    assert.equal(await page.locator(`[data-testid=group-create-friends-friend][data-peer-id="${carol.id}"]`).count(), 0);
    await page.keyboard.press('Escape');
  });

  it('raised no page errors', () => {
    assert.deepEqual([...a.errors, ...b1.errors, ...b2.errors], []);
  });
});
