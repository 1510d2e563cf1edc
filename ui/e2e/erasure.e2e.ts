// "Delete my account" in Settings: the warning, the password, a second confirmation, in each
// language; then the member is erased for everyone (issue 18, docs/erasure.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openSession, openSettings, shot } from './harness';
import { befriendOverApi, call, rawCall, registerOverApi, sendOverApi, type Account } from './rest';

const DELETE = { en: 'Delete account', zh_CN: '注销账号', vi_VN: 'Xóa tài khoản' } as const;

describe('deleting one\'s own account', { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let zoe: Account;
  let bob: Account;
  const text = `meet at the old mill ${Date.now()}`;

  before(async () => {
    [zoe, bob] = await Promise.all([registerOverApi(newMember('zoed')), registerOverApi(newMember('bobd'))]);
    await befriendOverApi(zoe, bob);
    await sendOverApi(zoe, bob, text);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('asks for the password and a second confirmation, then erases the member for everyone', async () => {
    const session = await openSession(browser);
    const { page } = session;
    await login(page, zoe);
    await openSettings(page);

    for (const language of ['zh_CN', 'vi_VN', 'en'] as const) {
      await page.getByTestId('settings-language').selectOption(language);
      await page.getByTestId('delete-account').click();
      await page.getByTestId('delete-dialog').getByText(DELETE[language]).first().waitFor();
      if (language !== 'en') await shot(page, `delete-account-${language}`);
      await page.getByTestId('delete-dialog').press('Escape');
      await page.getByTestId('delete-dialog').waitFor({ state: 'detached' });
    }

    await page.getByTestId('delete-account').click();
    assert.match(await page.getByTestId('delete-warning').innerText(), /cannot be undone/);
    await page.getByTestId('delete-submit').click();
    assert.equal(await page.getByTestId('delete-error').innerText(), 'Enter your password to confirm');

    await page.locator('[data-testid=delete-dialog] input[name=password]').fill('wrong999');
    await page.getByTestId('delete-submit').click();
    await page.getByTestId('delete-prompt').waitFor();
    await page.getByTestId('delete-confirm').click();
    assert.equal(await page.getByTestId('delete-error').innerText(), 'wrong password, please enter the correct password');
    const still = await rawCall('GET', '/v1/message/sessionInfo/list', zoe.token);
    assert.equal(still.status, 200, 'a wrong password deletes nothing');

    await page.locator('[data-testid=delete-dialog] input[name=password]').fill(zoe.password);
    await page.getByTestId('delete-submit').click();
    await page.getByTestId('delete-confirm').click();
    await page.waitForURL(/#\/login/);
    await shot(page, 'delete-account-done');

    const gone = await rawCall('GET', '/v1/message/sessionInfo/list', zoe.token);
    assert.equal(gone.status, 401, 'every session of the member ended');
    const relogin = await rawCall('POST', '/v1/member/memberInfo/login', null, { account: zoe.account, password: zoe.password, tenantCode: 'x0001' });
    assert.notEqual(relogin.status, 200);
    const sessions = await call<{ friendMemberId: string; name: string; lastMessageContent: string }[]>('GET', '/v1/message/sessionInfo/list', bob.token);
    const withZoe = sessions.find((s) => s.friendMemberId === zoe.id);
    assert.equal(withZoe?.name, '[erased]');
    assert.equal(withZoe?.lastMessageContent, '[message deleted]');
    const history = await call<{ from: string; content: string }[]>('GET', `/v1/message/messagePush/history/list/page?friendMemberId=${zoe.id}`, bob.token);
    assert.deepEqual(history.map((m) => [m.from, m.content]), [[zoe.id, '[message deleted]']]);
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });
});
