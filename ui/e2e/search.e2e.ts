import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { contrast, launchBrowser, login, missingEnv, newMember, openSession, setBackground, shot, type Session } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const box = (page: Page) => page.getByTestId('global-search');
const hits = (page: Page) => page.getByTestId('global-search-hit');

/** Waits until the chat shows the message of text within its scroller's view. */
async function landsOn(page: Page, text: string): Promise<void> {
  const bubble = page.getByTestId('message-text').filter({ hasText: text });
  await bubble.waitFor();
  await page.waitForFunction((wanted) => {
    const scroller = document.querySelector('[data-testid=message-scroller]');
    const el = [...document.querySelectorAll('[data-testid=message-text]')].find((e) => e.textContent?.includes(wanted));
    if (!scroller || !el) return false;
    const s = scroller.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= s.top && r.bottom <= s.bottom;
  }, text);
}

describe('one search box for chats, contacts and message text', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;
  let bob: Account;
  const searches: string[] = [];

  before(async () => {
    if (missingEnv) return;
    [alice, bob] = await Promise.all([registerOverApi(newMember('alice')), registerOverApi(newMember('bob'))]);
    await befriendOverApi(alice, bob);
    await sendOverApi(bob, alice, 'Tối nay ăn cơm ở đâu?');
    await sendOverApi(bob, alice, '我们今天去吃饭吧');
    for (let i = 0; i < 25; i++) await sendOverApi(alice, bob, `filler ${i}`);
    browser = await launchBrowser();
    a = await openSession(browser);
    a.page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/message/search') searches.push(url.searchParams.get('q') ?? '');
    });
    await login(a.page, alice);
  });

  after(async () => {
    await browser?.close();
  });

  it('finds Vietnamese typed without diacritics on the server, once typing pauses, and opens its chat', async () => {
    const page = a.page;
    await box(page).pressSequentially('an com', { delay: 40 });
    await hits(page).first().waitFor();
    assert.equal(searches.at(-1), 'an com');
    assert.ok(searches.length < 'an com'.length, `requests once typing pauses, not one per key: ${JSON.stringify(searches)}`);
    assert.equal(await hits(page).count(), 1);
    assert.match((await hits(page).first().textContent()) ?? '', /Tối nay ăn cơm ở đâu\?/);
    assert.equal(await hits(page).first().locator('mark').textContent(), 'ăn cơm', 'the match is marked as written');
    await shot(page, 'search-01-message');
    await hits(page).first().click();
    await page.locator(`[data-testid=chat-view][data-peer-id="${bob.id}"]`).waitFor();
    // 26 messages came after it: the chat loads older pages until the hit is there, and shows it.
    await landsOn(page, 'Tối nay ăn cơm ở đâu?');
    await shot(page, 'search-01-landed');
    assert.equal(await box(page).inputValue(), '', 'opening a result clears the box');
    await page.getByTestId('session-list').waitFor();
  });

  it('works on a 375 px phone: a query without diacritics finds the message of another chat, which opens on it', async () => {
    const phone = await openSession(browser, { width: 375, height: 740 });
    try {
      await login(phone.page, alice);
      await box(phone.page).fill('toi nay');
      await hits(phone.page).first().waitFor();
      assert.equal(await hits(phone.page).count(), 1);
      const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 375, `no sideways scroll: ${width}px`);
      await shot(phone.page, 'search-03-phone');
      await hits(phone.page).first().click();
      await landsOn(phone.page, 'Tối nay ăn cơm ở đâu?');
      await shot(phone.page, 'search-04-phone-landed');
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
  });

  it('speaks the page’s language, and a hit opens on the Night background at 375 px readable', async () => {
    const phone = await openSession(browser, { width: 375, height: 740 });
    const { page } = phone;
    try {
      await login(page, alice);
      await setBackground(page, 'night');
      const texts = [
        { language: 'zh_CN', placeholder: '搜索会话、联系人和消息', messages: '聊天记录', none: '没有找到相关结果' },
        { language: 'vi_VN', placeholder: 'Tìm cuộc trò chuyện, liên hệ và tin nhắn', messages: 'Tin nhắn', none: 'Không tìm thấy kết quả' },
      ];
      for (const { language, placeholder, messages, none } of texts) {
        await page.evaluate((l) => localStorage.setItem('eventchat.language', JSON.stringify(l)), language);
        await page.reload();
        // At 375 px Settings covers the list until closed.
        await page.getByTestId('back-button').click({ timeout: 5000 }).catch(() => undefined);
        await box(page).waitFor();
        assert.equal(await box(page).getAttribute('placeholder'), placeholder);
        await box(page).fill('toi nay');
        await page.getByTestId('global-search-results').getByRole('region', { name: messages }).waitFor();
        await hits(page).first().waitFor();
        await box(page).fill('nothing like this');
        await page.getByTestId('global-search-none').getByText(none).waitFor();
        await shot(page, `search-05-${language}`);
        await box(page).fill('toi nay');
        await hits(page).first().click();
        await landsOn(page, 'Tối nay ăn cơm ở đâu?');
        const [text, bubble] = await page
          .getByTestId('message-text')
          .filter({ hasText: 'Tối nay ăn cơm ở đâu?' })
          .evaluate((element) => {
            let back = element as HTMLElement | null;
            while (back && getComputedStyle(back).backgroundColor === 'rgba(0, 0, 0, 0)') back = back.parentElement;
            return [getComputedStyle(element).color, back ? getComputedStyle(back).backgroundColor : 'rgb(255, 255, 255)'];
          });
        assert.ok(contrast(text, bubble) >= 4.5, `the found message reads at ${contrast(text, bubble).toFixed(2)}:1 on Night`);
        await page.getByTestId('back-button').click();
      }
      await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('en')));
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
  });

  it('finds Chinese by two characters, and contacts and chats by name', async () => {
    const page = a.page;
    await box(page).fill('吃饭');
    await page.getByTestId('global-search-hit').filter({ hasText: '我们今天去吃饭吧' }).waitFor();
    await box(page).fill(bob.account.slice(0, 6));
    const results = page.getByTestId('global-search-results');
    await results.getByRole('region', { name: 'Contacts' }).getByText(`@${bob.account}`).waitFor();
    await shot(page, 'search-02-contact');
  });

  it('pages older messages and says when nothing is found', async () => {
    const page = a.page;
    await box(page).fill('filler');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=global-search-hit]').length === 20);
    await page.getByRole('button', { name: 'More messages' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=global-search-hit]').length === 25);
    await box(page).fill('nothing like this');
    await page.getByTestId('global-search-none').waitFor();
    await box(page).press('Escape');
    await page.getByTestId('session-list').waitFor();
    assert.deepEqual(a.errors, []);
  });
});
