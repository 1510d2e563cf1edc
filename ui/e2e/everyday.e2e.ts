// What a member meets every day, checked as they meet it: chat backgrounds that colour the whole
// chat column readably, the font size on the message text, the open chat in the address and the
// history, what the login page says about privacy, the notifications badge after a friend request
// is answered, the unread total in the tab title, the "unread" separator and the list's previews.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, rawCall, registerOverApi, sendOverApi, type Account } from './rest';

const PHONE = { width: 375, height: 740 };

/** The WCAG contrast ratio of two computed rgb() colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = colour.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

interface ChatColours {
  column: string;
  header: string;
  composer: string;
  incomingText: string;
  incomingFill: string;
  incomingFont: string;
}

function chatColours(page: Page): Promise<ChatColours> {
  return page.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    const bubble = style('[data-testid=message]:not(.message-own) .bubble');
    return {
      column: style('[data-testid=chat-view]').backgroundColor,
      header: style('[data-testid=chat-view] .pane-header').backgroundColor,
      composer: style('[data-testid=chat-view] .composer-wrap').backgroundColor,
      incomingText: bubble.color,
      incomingFill: bubble.backgroundColor,
      incomingFont: bubble.fontSize,
    };
  });
}

async function pickInSettings(page: Page, pick: (page: Page) => Promise<unknown>): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings').waitFor();
  await pick(page);
}

describe('everyday use', { skip: missingEnv || undefined }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;

  before(async () => {
    [alice, bob] = await Promise.all([registerOverApi(newMember('alicee')), registerOverApi(newMember('bobe'))]);
    await befriendOverApi(alice, bob);
    await sendOverApi(bob, alice, 'Are we still on for Saturday?');
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('the login page says messages are encrypted in transit and readable on the server, in each language', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await page.goto(`${BASE_URL}/#/login`);
    const expected: [string, RegExp, RegExp][] = [
      ['EN', /encrypted in transit/, /operators and auditors can read/],
      ['中文', /传输过程中加密/, /运营方和审计员可以查看/],
      ['Tiếng Việt', /mã hóa khi truyền đi/, /kiểm toán viên có thể đọc/],
    ];
    for (const [label, transit, readable] of expected) {
      await page.getByRole('radio', { name: label, exact: true }).click();
      await waitUntil(`the ${label} tagline`, async () => transit.test(await page.locator('.auth-brand').innerText()));
      assert.match(await page.getByTestId('storage-note').innerText(), readable);
      const brand = await page.locator('.auth-brand').innerText();
      assert.doesNotMatch(brand, /AES|Private|私密|riêng tư/);
    }
    await page.getByRole('radio', { name: 'EN', exact: true }).click();
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, PHONE]) {
    const where = viewport.width < 800 ? '375 px' : 'desktop';
    it(`light, Mint and Night colour the whole chat column with readable incoming bubbles (${where})`, async () => {
      const session = await openSession(browser, viewport);
      const { page } = session;
      await login(page, alice);
      const themes: [string, { column: string; surface: string }][] = [
        ['default', { column: 'rgb(243, 245, 249)', surface: 'rgb(255, 255, 255)' }],
        ['mint', { column: 'rgb(223, 242, 232)', surface: 'rgb(246, 252, 248)' }],
        ['night', { column: 'rgb(21, 26, 35)', surface: 'rgb(34, 42, 55)' }],
      ];
      for (const [theme, want] of themes) {
        await pickInSettings(page, (p) => p.getByTestId('background').selectOption(theme));
        if (viewport.width < 800) await page.getByTestId('back-button').click();
        await openChat(page, bob.id!);
        await page.locator('[data-testid=message]:not(.message-own) .bubble').first().waitFor();
        await waitUntil(`the ${theme} column`, async () => (await chatColours(page)).column === want.column);
        const colours = await chatColours(page);
        assert.equal(colours.header, want.surface, `${theme} header`);
        assert.equal(colours.composer, want.surface, `${theme} composer`);
        const ratio = contrast(colours.incomingText, colours.incomingFill);
        assert.ok(ratio >= 4.5, `${theme}: incoming bubble contrast ${ratio.toFixed(2)} is under 4.5`);
        if (theme !== 'default') await shot(page, `everyday-${theme}-${viewport.width}`);
        if (viewport.width < 800) await page.getByTestId('back-button').click();
      }
      await pickInSettings(page, (p) => p.getByTestId('background').selectOption('default'));
      assert.deepEqual(session.errors, []);
      await session.context.close();
    });
  }

  it('the font size setting sizes the message text', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await login(page, alice);
    for (const [level, px] of [
      ['0', '13px'],
      ['2', '17px'],
      ['1', '15px'],
    ]) {
      await pickInSettings(page, (p) => p.getByTestId(`font-${level}`).check());
      await openChat(page, bob.id!);
      await page.locator('[data-testid=message]:not(.message-own) .bubble').first().waitFor();
      await waitUntil(`message text of ${px}`, async () => (await chatColours(page)).incomingFont === px);
    }
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('at 375 px the open chat is in the address: back returns to the list, forward, reload and a link reopen it', async () => {
    const session = await openSession(browser, PHONE);
    const { page } = session;
    await login(page, alice);
    const appPath = `/1/${alice.id}/`;
    const chat = page.locator(`[data-testid=chat-view][data-peer-id="${bob.id}"]`);
    await page.getByTestId('tab-chats').click();
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    await chat.waitFor();
    assert.equal(new URL(page.url()).hash, `#/historyPage/${bob.id}`);

    await page.goBack();
    await page.getByTestId('session-list').waitFor();
    await chat.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, appPath);
    assert.equal(new URL(page.url()).hash, '#/');

    await page.goForward();
    await chat.waitFor();
    await page.reload();
    await chat.waitFor();
    assert.equal(new URL(page.url()).hash, `#/historyPage/${bob.id}`);

    await page.getByTestId('back-button').click();
    await page.getByTestId('session-list').waitFor();
    await waitUntil('the address to leave the chat', async () => new URL(page.url()).hash === '#/');
    assert.equal(new URL(page.url()).pathname, appPath);

    const linked = await session.context.newPage();
    await linked.goto(`${BASE_URL}${appPath}#/historyPage/${bob.id}`);
    await linked.locator(`[data-testid=chat-view][data-peer-id="${bob.id}"]`).waitFor();
    await linked.locator('[data-testid=message]').getByText('Are we still on for Saturday?').waitFor();
    await linked.close();
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('on the desktop a reload keeps the open chat, and leaving it by another screen clears the address', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await login(page, alice);
    await openChat(page, bob.id!);
    await waitUntil('the chat in the address', async () => new URL(page.url()).hash === `#/historyPage/${bob.id}`);
    await page.reload();
    await page.locator(`[data-testid=chat-view][data-peer-id="${bob.id}"]`).waitFor();
    await page.getByTestId('fixed-entry-003').click();
    await page.getByTestId('notices-view').waitFor();
    await waitUntil('the address to leave the chat', async () => new URL(page.url()).hash === '#/');
    await page.reload();
    await page.getByTestId('session-list').waitFor();
    assert.equal(await page.getByTestId('chat-view').count(), 0);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('an answered friend request clears the Notifications badge and its notice says the answer', async () => {
    const [fiona, carol, dave] = await Promise.all(
      ['fionae', 'carole', 'davee'].map((tag) => registerOverApi(newMember(tag))),
    );
    await rawCall('POST', '/v1/chat/applyInfo/build', carol.token, { friendMemberId: fiona.id, content: 'hello from carol' });
    const fromDave = await rawCall<{ id: string }>('POST', '/v1/chat/applyInfo/build', dave.token, {
      friendMemberId: fiona.id,
      content: 'hello from dave',
    });
    assert.equal(fromDave.code, '200');
    const session = await openSession(browser);
    const { page } = session;
    await login(page, fiona);
    const badge = page.getByTestId('fixed-badge-003');
    await waitUntil('two unread notices', async () => (await badge.count()) === 1 && (await badge.innerText()) === '2');

    await page.getByTestId('tab-contacts').click();
    await page.getByTestId('open-requests').click();
    await page
      .locator('[data-testid=request-item][data-status=pending]', { hasText: 'hello from carol' })
      .getByTestId('request-accept')
      .click();
    await page.locator('[data-testid=request-item][data-status=accepted]', { hasText: 'hello from carol' }).waitFor();
    await page.getByTestId('tab-chats').click();
    await waitUntil('one unread notice', async () => (await badge.count()) === 1 && (await badge.innerText()) === '1');

    // Answered elsewhere (another device), the notice reads as answered once seen.
    await rawCall('PUT', '/v1/chat/applyInfo/modify', fiona.token, { id: fromDave.data.id, status: 'rejected' });
    await page.getByTestId('fixed-entry-003').click();
    const notices = page.locator('[data-testid=notice][data-command=FriendRequest]');
    await waitUntil('both requests shown as answered', async () => (await notices.getByTestId('notice-answer').count()) === 2);
    assert.equal(await notices.getByTestId('notice-open-requests').count(), 0);
    assert.deepEqual(
      (await notices.getByTestId('notice-answer').evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))).sort(),
      ['accepted', 'rejected'],
    );
    await waitUntil('the badge to clear', async () => (await badge.count()) === 0);
    await page.reload();
    await page.getByTestId('fixed-entry-003').waitFor();
    assert.equal(await badge.count(), 0);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('the tab title counts unread messages until the chat is read', async () => {
    const erin = await registerOverApi(newMember('erine'));
    await befriendOverApi(erin, bob);
    const session: Session = await openSession(browser);
    const { page } = session;
    await login(page, erin);
    await waitUntil('a title without a count', async () => (await page.title()) === 'EventChat');
    await sendOverApi(bob, erin, 'one');
    await sendOverApi(bob, erin, 'two');
    await waitUntil('the title to count 2', async () => (await page.title()) === '(2) EventChat');
    await page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`).click();
    await waitUntil('the title to name the chat without a count', async () => /^\[Friend\] /.test(await page.title()));
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('opens a chat with unread messages at an "unread" separator above the first of them, in each language', async () => {
    const [gina, hank] = await Promise.all([registerOverApi(newMember('ginae')), registerOverApi(newMember('hanke'))]);
    await befriendOverApi(gina, hank);
    await sendOverApi(gina, hank, 'earlier, from gina');
    for (const [viewport, language, label] of [
      [{ width: 1280, height: 800 }, 'en', 'Unread messages'],
      [PHONE, 'zh_CN', '以下为未读消息'],
      [PHONE, 'vi_VN', 'Tin nhắn chưa đọc'],
    ] as const) {
      for (const text of ['first', 'second', 'third']) await sendOverApi(hank, gina, `${text} unread ${language}`);
      const session = await openSession(browser, viewport);
      const { page } = session;
      await login(page, gina);
      await page.evaluate((lang) => localStorage.setItem('eventchat.language', JSON.stringify(lang)), language);
      await page.reload();
      await page.locator(`[data-testid=session-item][data-peer-id="${hank.id}"]`).click();
      const separator = page.getByTestId('unread-separator');
      await separator.waitFor();
      assert.equal(await separator.innerText(), label);
      const next = await separator.evaluate((row) => row.nextElementSibling?.textContent ?? '');
      assert.match(next, new RegExp(`first unread ${language}`));
      await waitUntil('the chat to be read', async () => !(await page.title()).startsWith('('));
      if (language === 'vi_VN') {
        // read now: the chat opens again without a separator
        await page.reload();
        await page.locator('[data-testid=message]').getByText('third unread vi_VN').waitFor();
        assert.equal(await separator.count(), 0);
      }
      assert.deepEqual(session.errors, []);
      await session.context.close();
    }
  });

  it('previews a file as people say it, in each language', async () => {
    const [ivy, jack] = await Promise.all([registerOverApi(newMember('ivye')), registerOverApi(newMember('jacke'))]);
    await befriendOverApi(ivy, jack);
    await sendOverApi(jack, ivy, 'hello ivy');
    const session = await openSession(browser);
    const { page } = session;
    await login(page, ivy);
    await openChat(page, jack.id!);
    await page
      .getByTestId('attach-file-input')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 quarterly numbers') });
    await page.getByTestId('media-file').filter({ hasText: 'report.pdf' }).waitFor();
    await page.getByTestId('tab-chats').click();
    const preview = page.locator(`[data-testid=session-item][data-peer-id="${jack.id}"]`).getByTestId('session-preview');
    // Live, the message itself is at hand and names the file; the server's list keeps its type only.
    await waitUntil('the live preview', async () => (await preview.innerText()) === 'File: report.pdf');
    for (const [language, text] of [
      ['en', 'File'],
      ['zh_CN', '文件'],
      ['vi_VN', 'Tệp'],
    ]) {
      await page.evaluate((lang) => localStorage.setItem('eventchat.language', JSON.stringify(lang)), language);
      await page.reload();
      await page.getByTestId('tab-chats').click();
      await waitUntil(`the ${language} preview`, async () => (await preview.innerText()) === text).catch(async (error) => {
        throw new Error(`${error.message}: "${await preview.innerText()}"`);
      });
    }
    await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('en')));
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  it('toasts sit in the content column, capitalised, and the server says them in the page language', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await login(page, alice);
    const toast = page.locator('.toast').first();
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    const centre = box.x + box.width / 2;
    assert.ok(Math.abs(centre - (320 + (1280 - 320) / 2)) < 2, `the toast is centred at ${centre}, not over the content column`);
    await session.context.close();

    for (const [language, check] of [
      ['en', /^[A-Z]/],
      ['zh_CN', /[\u4e00-\u9fff]/],
      ['vi_VN', /[ạảãàáâậầấẩẫăắằặẳẵđêếềệểễôốồộổỗơớờợởỡưứừựửữ]/i],
    ] as const) {
      const wrong = await openSession(browser, PHONE);
      await wrong.context.addInitScript((lang) => localStorage.setItem('eventchat.language', JSON.stringify(lang)), language);
      await wrong.page.goto(`${BASE_URL}/#/login`);
      await wrong.page.locator('input[name=account]').fill(alice.account);
      await wrong.page.locator('input[name=password]').fill('wrong-password');
      await wrong.page.locator('input[name=agreement]').check();
      await wrong.page.locator('form button[type=submit]').click();
      const refusal = wrong.page.locator('.toast-error').first();
      await refusal.waitFor();
      const text = await refusal.innerText();
      assert.match(text, check, `${language}: "${text}"`);
      const shown = (await refusal.boundingBox())!;
      assert.ok(shown.x >= 0 && shown.x + shown.width <= PHONE.width, `${language}: the toast leaves the 375 px screen`);
      await wrong.context.close();
    }
  });
});
