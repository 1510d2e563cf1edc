// The admin page follows the system's light or dark preference: on every tab, its panels open,
// each text reads at 4.5:1 or more on what lies behind it, and nothing is wider than a phone
// (the tab strip scrolls sideways, each tab's name on one line).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, missingEnv, newMember, openSession, shot, startedReplay } from './harness';
import { befriendOverApi, operatorToken, registerOverApi, sendOverApi, type Account } from './rest';

interface Reading {
  text: string;
  ratio: number;
}

/**
 * Every visible text of the page (elements holding text of their own, and the values of inputs)
 * with its contrast on the fill behind it: the backgrounds of its ancestors, translucent ones
 * laid over those below. Disabled controls are left out, as WCAG leaves them.
 */
function readings(page: Page): Promise<{ texts: Reading[]; broken: string[]; wide: number; width: number }> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (colour: string): Rgba => {
      const [r, g, b, a = 1] = colour.match(/[\d.]+/g)!.map(Number);
      return [r, g, b, a];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1) as Rgba;
    };
    const fill = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let at: Element | null = element; at; at = at.parentElement) {
        const colour = parse(getComputedStyle(at).backgroundColor);
        if (colour[3] > 0) layers.push(colour);
        if (colour[3] === 1) break;
      }
      return layers.reduceRight<Rgba>((below, top) => over(top, below), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: Rgba) => {
      const linear = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const ratio = (element: Element) => {
      const behind = fill(element);
      const text = over(parse(getComputedStyle(element).color), behind);
      const [hi, lo] = [luminance(text), luminance(behind)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility === 'visible';
    };
    const texts: Reading[] = [];
    for (const element of document.querySelectorAll('body *')) {
      if (!shown(element) || element.closest(':disabled')) continue;
      const own = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim());
      const value = element.matches('input:not([type=checkbox]):not([type=radio]), textarea, select') && (element as HTMLInputElement).value;
      if (own || value) texts.push({ text: (value || element.textContent || '').trim().slice(0, 60), ratio: ratio(element) });
    }
    // A tab's name on more than one line.
    const broken = [...document.querySelectorAll('.admin-tabs .tab')]
      .filter((tab) => {
        const range = document.createRange();
        range.selectNodeContents(tab);
        return new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size > 1;
      })
      .map((tab) => tab.textContent ?? '');
    return { texts, broken, wide: document.documentElement.scrollWidth, width: document.documentElement.clientWidth };
  });
}

async function check(page: Page, where: string): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await readings(page);
    assert.ok(found.texts.length > 3, `${where}, ${scheme}: texts to read`);
    const faint = found.texts.filter((reading) => reading.ratio < 4.5).map(({ text, ratio }) => `"${text}" ${ratio.toFixed(2)}`);
    assert.deepEqual(faint, [], `${where}, ${scheme}: texts under 4.5:1`);
    assert.ok(found.wide <= found.width, `${where}, ${scheme}: ${found.wide} px wide in ${found.width} px`);
    assert.deepEqual(found.broken, [], `${where}: tab names broken over lines`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
}

describe('the admin page, dark or light', { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let alice: Account;
  let bob: Account;

  before(async () => {
    browser = await launchBrowser();
    [alice, bob] = await Promise.all([registerOverApi(newMember('darka')), registerOverApi(newMember('darkb'))]);
    await befriendOverApi(alice, bob);
    await sendOverApi(alice, bob, 'read in the dark');
  });

  after(async () => {
    await browser?.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 740 },
  ]) {
    it(`reads on every tab at ${viewport.width} px`, async () => {
      const session = await openSession(browser, viewport);
      const { page } = session;
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${BASE_URL}/admin/`);
      await page.locator('textarea[name=token]').fill(await operatorToken());
      await check(page, 'sign-in');
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.locator('[data-projector="chats.v4"]').waitFor();
      await page.getByRole('button', { name: 'Rebuild', exact: true }).click();
      await page.getByTestId('rebuild-confirm').waitFor();
      await check(page, 'projections');
      await page.getByTestId('rebuild-confirm').locator('.button-secondary').click();

      await page.locator('input[name=tenant]').fill('x0001');
      await page.getByRole('button', { name: 'History', exact: true }).click();
      await page.getByRole('button', { name: 'Search' }).click();
      const line = page.locator('[data-testid=events] li').first();
      await line.getByRole('button', { name: 'Raw data' }).click();
      await line.getByTestId('event-raw').waitFor();
      await check(page, 'history');
      await shot(page, `admin-dark-history-${viewport.width}`);

      await page.getByRole('button', { name: 'Replays', exact: true }).click();
      await page.getByTestId('replays').waitFor();
      await page.waitForLoadState('networkidle');
      // Other browser tests replay the same tenant at the same time: this one follows its own.
      const id = await startedReplay(page);
      const row = page.locator(`tr[data-replay="${id}"]`);
      const done = row.and(page.locator('[data-state=done]'));
      await done.waitFor({ timeout: 30_000 });
      await done.getByRole('button', { name: 'Browse' }).click();
      await page.locator('input[name=member]').fill(alice.account);
      await page.getByRole('button', { name: 'Conversations' }).click();
      await page.getByTestId('replay-member').filter({ hasText: `@${alice.account}` }).waitFor();
      await page.locator('[data-testid=replay-sessions] li').filter({ hasText: bob.account }).locator('button').first().click();
      await page.getByTestId('replay-history').getByText('read in the dark').waitFor();
      await check(page, 'replay');
      await shot(page, `admin-dark-replay-${viewport.width}`);
      // A tenant keeps twenty replays at most: this spec leaves none behind.
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Verify', exact: true }).first().click();
      await page.getByTestId('verify').getByRole('button', { name: 'Verify', exact: true }).click();
      await page.getByTestId('verify-summary').waitFor({ timeout: 30_000 });
      await check(page, 'verify');

      await page.getByRole('button', { name: 'Top-up', exact: true }).click();
      await page.getByTestId('admin-topup').waitFor();
      await check(page, 'top-ups');
      assert.deepEqual(session.errors, []);
      await session.context.close();
    });
  }
});
