// The Settings screen as people expect it: the language picked there too, switches and selects
// that look like controls, a column of readable width, and the conversation list's "⋯" inside
// the list on narrow phones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openSession, openSettings, shot, waitUntil } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const TITLES = { en: 'Settings', zh_CN: '设置', vi_VN: 'Cài đặt' } as const;

describe('settings screen', { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;

  before(async () => {
    [alice, bob] = await Promise.all([registerOverApi(newMember('alices')), registerOverApi(newMember('bobs'))]);
    await befriendOverApi(alice, bob);
    await sendOverApi(bob, alice, 'a rather long first message so that the preview has to be cut short on a phone');
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
    const where = viewport.width < 800 ? '375 px' : 'desktop';
    it(`picks the language in Settings, in each language, and keeps it across a reload (${where})`, async () => {
      const session = await openSession(browser, viewport);
      const { page } = session;
      await login(page, alice);
      await openSettings(page);
      const picker = page.getByTestId('settings-language');
      assert.equal(await picker.inputValue(), 'en');
      for (const language of ['zh_CN', 'vi_VN', 'en'] as const) {
        await picker.selectOption(language);
        await page.locator('[data-testid=settings] h1, [data-testid=settings] h2').filter({ hasText: TITLES[language] }).first().waitFor();
        assert.equal(await picker.inputValue(), language);
        if (language !== 'en') await shot(page, `settings-${language}-${viewport.width}`);
      }
      await picker.selectOption('vi_VN');
      await page.reload();
      await page.getByTestId('settings').waitFor(); // the address (#/setting) keeps the screen
      assert.equal(await page.getByTestId('settings-language').inputValue(), 'vi_VN');
      await page.getByTestId('settings-language').selectOption('en');
      assert.deepEqual(session.errors, []);
      await session.context.close();
    });
  }

  it('styles switches and selects, and keeps the column at a readable width', async () => {
    const session = await openSession(browser, { width: 1600, height: 900 });
    const { page } = session;
    await login(page, alice);
    await openSettings(page);
    const toggle = page.getByTestId('pref-showMessageTime');
    await toggle.waitFor();
    const look = () =>
      toggle.evaluate((element) => {
        const style = getComputedStyle(element);
        const knob = getComputedStyle(element, '::before');
        return { appearance: style.appearance, width: style.width, fill: style.backgroundColor, knob: knob.transform };
      });
    const before = await look();
    assert.equal(before.appearance, 'none');
    assert.equal(before.width, '40px');
    await toggle.click();
    await waitUntil('the switch to change colour and move its knob when flipped', async () => {
      const flipped = await look();
      return flipped.fill !== before.fill && flipped.knob !== before.knob;
    });
    await toggle.click();

    const select = await page.getByTestId('background').evaluate((element) => {
      const style = getComputedStyle(element);
      return { appearance: style.appearance, radius: parseFloat(style.borderTopLeftRadius), height: element.getBoundingClientRect().height };
    });
    assert.equal(select.appearance, 'none');
    assert.ok(select.radius >= 6 && select.height >= 32, `select looks ${JSON.stringify(select)}`);

    const rows = await page.locator('[data-testid=settings] .settings-row').evaluateAll((elements) =>
      elements.map((element) => element.getBoundingClientRect().width),
    );
    assert.ok(rows.length > 5);
    assert.ok(Math.max(...rows) <= 640, `a settings row is ${Math.max(...rows)} px wide`);
    await shot(page, 'settings-wide-1600');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });

  for (const width of [320, 375]) {
    it(`keeps the conversation row's "⋯" inside the list at ${width} px`, async () => {
      const session = await openSession(browser, { width, height: 700 });
      const { page } = session;
      await login(page, alice);
      const row = page.locator(`[data-testid=session-item][data-peer-id="${bob.id}"]`);
      await row.waitFor();
      const boxes = await page.evaluate((peer) => {
        const item = document.querySelector(`[data-testid=session-item][data-peer-id="${peer}"]`)!;
        const more = item.parentElement!.querySelector('[data-testid=session-more]')!;
        return {
          more: more.getBoundingClientRect().right,
          item: item.getBoundingClientRect().right,
          page: document.documentElement.clientWidth,
          scroll: document.documentElement.scrollWidth,
        };
      }, bob.id!);
      assert.ok(boxes.more <= boxes.page, `"⋯" ends at ${boxes.more} px, the page at ${boxes.page} px`);
      assert.ok(boxes.item <= boxes.more, 'the row keeps room for its "⋯"');
      assert.equal(boxes.scroll, boxes.page, 'the page scrolls sideways');
      await shot(page, `settings-list-more-${width}`);
      assert.deepEqual(session.errors, []);
      await session.context.close();
    });
  }
});
