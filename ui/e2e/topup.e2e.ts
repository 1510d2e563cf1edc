import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, login, missingEnv, newMember, openSession, openSettings, shot, type Session } from './harness';
import { adminOverApi, call, operatorToken, rawCall, registerOverApi, type Account } from './rest';

async function switchTopUp(on: boolean): Promise<void> {
  await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { topUp: String(on) } });
}

async function reloadIn(page: Page, language: string): Promise<void> {
  await page.evaluate((lang) => localStorage.setItem('eventchat.language', JSON.stringify(lang)), language);
  await page.reload();
}

describe('the top-up page', { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let member: Session;
  let op: Session;
  let kim: Account;

  before(async () => {
    await switchTopUp(true);
    browser = await launchBrowser();
    member = await openSession(browser);
    op = await openSession(browser);
    kim = await registerOverApi(newMember('topk'));
    await login(member.page, kim);
  });

  after(async () => {
    await switchTopUp(false);
    await browser?.close();
  });

  it('is reached from Settings at #/topup, with the balance, the amounts and their bounds', async () => {
    const page = member.page;
    await openSettings(page);
    await page.getByTestId('open-topup').click();
    await page.waitForURL(/#\/topup$/);
    await page.getByTestId('topup-balance').filter({ hasText: '0.00' }).waitFor();
    assert.deepEqual(await page.getByTestId('topup-preset').allTextContents(), ['10.00', '50.00', '100.00', '500.00']);
    await page.getByTestId('topup-amount').fill('0.5');
    await page.getByTestId('topup-amount-error').filter({ hasText: 'Enter an amount from 1.00 to 10,000.00' }).waitFor();
    assert.equal(await page.getByTestId('topup-submit').isDisabled(), true);
    await page.getByTestId('topup-amount').fill('10000.01');
    assert.equal(await page.getByTestId('topup-submit').isDisabled(), true);
    await page.getByTestId('topup-amount').fill('');
    await shot(page, 'topup-01-page');
  });

  it('follows an order from pending to credited when an operator confirms it on the admin page', async () => {
    const page = member.page;
    await page.getByTestId('topup-preset').filter({ hasText: '50.00' }).click();
    await page.getByTestId('topup-submit').filter({ hasText: 'Top up 50.00' }).click();
    const waiting = page.getByTestId('topup-waiting');
    await waiting.waitFor();
    const orderId = (await waiting.getAttribute('data-order-id'))!;
    await page.locator(`[data-testid=topup-item][data-order-id="${orderId}"][data-status=Pending]`).waitFor();

    await op.page.goto(`${BASE_URL}/admin/`);
    await op.page.locator('textarea[name=token]').fill(await operatorToken());
    await op.page.getByRole('button', { name: 'Sign in' }).click();
    await op.page.locator('input[name=tenant]').fill('x0001');
    await op.page.getByRole('button', { name: 'Top-up', exact: true }).click();
    const row = op.page.locator(`tr[data-order-id="${orderId}"][data-status=Pending]`);
    await row.getByRole('button', { name: 'Confirm' }).click();
    await op.page.getByTestId('admin-topup-done').filter({ hasText: `Order ${orderId} confirmed.` }).waitFor();
    await op.page.locator(`tr[data-order-id="${orderId}"][data-status=Confirmed]`).waitFor();
    await shot(op.page, 'topup-02-admin');

    await page.getByText('Your top-up of 50.00 was credited.').waitFor();
    await page.getByTestId('topup-balance').filter({ hasText: '50.00' }).waitFor();
    await page.locator(`[data-testid=topup-item][data-order-id="${orderId}"][data-status=Confirmed]`).waitFor();
    assert.equal(await waiting.count(), 0);
    await shot(page, 'topup-03-credited');
  });

  it('shows a rejected order and the server refusal of a fourth pending order, in the page language', async () => {
    const page = member.page;
    await page.getByTestId('topup-amount').fill('12.5');
    await page.getByTestId('topup-submit').filter({ hasText: 'Top up 12.50' }).click();
    const orderId = (await page.getByTestId('topup-waiting').getAttribute('data-order-id'))!;
    await adminOverApi('PUT', '/v1/admin/topup/reject', { tenant: 'x0001', id: orderId, reason: 'no transfer' });
    await page.getByText('Your top-up of 12.50 was rejected.').waitFor();
    await page.locator(`[data-testid=topup-item][data-order-id="${orderId}"][data-status=Rejected]`).getByText('no transfer').waitFor();

    for (const requestId of ['p1', 'p2', 'p3']) {
      await call('POST', '/v1/member/topup/order', kim.token, { requestId: `${kim.id}-${requestId}`, amount: 100 });
    }
    await reloadIn(page, 'zh_CN');
    await page.getByText('余额').waitFor();
    await page.getByTestId('topup-preset').first().click();
    await page.getByTestId('topup-submit').click();
    await page.getByText('您有 3 笔充值正在等待付款，请等待完成').waitFor();
    assert.equal(await page.locator('[data-testid=topup-item][data-status=Pending]').count(), 3);
    await reloadIn(page, 'vi_VN');
    await page.getByText('Số dư').waitFor();
    await page.locator('[data-testid=topup-item][data-status=Confirmed]').getByText('Đã cộng tiền').waitFor();
    await reloadIn(page, 'en');
  });

  it('says so when the tenant has top-up off, and Settings no longer offers it', async () => {
    await switchTopUp(false);
    const page = member.page;
    await page.reload();
    await page.getByTestId('topup-off').filter({ hasText: 'Top-up is not available for this server.' }).waitFor();
    await page.getByTestId('topup-balance').filter({ hasText: '50.00' }).waitFor();
    const refused = await rawCall('POST', '/v1/member/topup/order', kim.token, { requestId: 'off', amount: 100 });
    assert.equal(refused.status, 403);
    await openSettings(page);
    assert.equal(await page.getByTestId('open-topup').count(), 0);
    assert.deepEqual(member.errors, []);
  });
});
