import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const suite = 'settings, profile and friend details';

describe(suite, { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    alice = await registerOverApi(newMember('alices'));
    bob = await registerOverApi(newMember('bobs'));
    carol = await registerOverApi(newMember('carols'));
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    await login(a.page, alice);
  });

  after(async () => {
    assert.deepEqual(a?.errors ?? [], []);
    await browser?.close();
  });

  async function openSettings(): Promise<void> {
    await a.page.getByTestId('open-settings').click();
    await a.page.getByTestId('settings').waitFor();
  }

  it('changes the name and shows it in the header; the /setting avatar wears a crown', async () => {
    await openSettings();
    await a.page.getByTestId('settings-crown').waitFor();
    await a.page.locator('input[name=name]').fill('Alice in Settings');
    await a.page.getByTestId('save-name').click();
    await waitUntil('the new name in the header', async () => (await a.page.getByTestId('me-name').textContent()) === 'Alice in Settings');
    await shot(a.page, 'accounts-settings');
  });

  it('keeps the settings toggles, font size and background across a reload', async () => {
    await openSettings();
    await a.page.getByTestId('pref-notifications').uncheck();
    await a.page.getByTestId('pref-imagePreviewWindow').check();
    await a.page.getByTestId('font-2').check();
    await a.page.getByTestId('background').selectOption('night');
    await waitUntil('the settings stored', async () => {
      const prefs = await api<{ notifications: boolean; fontSize: number; background: string; imagePreviewWindow: boolean }>(
        a.page,
        'GET',
        '/v1/member/memberSetting/get',
      );
      return !prefs.notifications && prefs.fontSize === 2 && prefs.background === 'night' && prefs.imagePreviewWindow;
    });
    await a.page.reload();
    await a.page.getByTestId('settings').waitFor();
    assert.equal(await a.page.getByTestId('pref-notifications').isChecked(), false);
    assert.equal(await a.page.getByTestId('pref-imagePreviewWindow').isChecked(), true);
    assert.equal(await a.page.getByTestId('font-2').isChecked(), true);
    assert.equal(await a.page.getByTestId('background').inputValue(), 'night');
    assert.equal(await a.page.evaluate(() => document.documentElement.dataset.fontSize), '2');
  });

  it('changes the account ID once, after a confirmation, and refuses a second change', async () => {
    await openSettings();
    const next = `Al${Date.now().toString(36).slice(-8)}`.slice(0, 12);
    await a.page.getByTestId('change-account').click();
    await a.page.locator('input[name=username]').fill(next);
    await a.page.getByTestId('account-submit').click();
    await a.page.getByTestId('account-prompt').waitFor();
    assert.equal(await a.page.getByTestId('account-prompt').textContent(), `Change the account ID to ${next}? It cannot be changed again.`);
    await a.page.getByTestId('account-confirm').click();
    await waitUntil('the new account ID', async () => (await a.page.getByTestId('settings-account').textContent()) === next);
    alice.account = next;

    await a.page.getByTestId('change-account').click();
    await a.page.locator('input[name=username]').fill(`${next}x`);
    await a.page.getByTestId('account-submit').click();
    await a.page.getByTestId('account-confirm').click();
    await a.page.getByTestId('account-error').filter({ hasText: 'the account ID can be changed only once' }).waitFor();
    await a.page.keyboard.press('Escape');
  });

  it('changes the password, then logs in with the new one', async () => {
    await openSettings();
    await a.page.getByTestId('change-password').click();
    await a.page.locator('input[name=oldPassword]').fill('wrong000');
    await a.page.locator('input[name=newPassword]').fill('newPass2026');
    await a.page.locator('input[name=confirmPassword]').fill('newPass2026');
    await a.page.getByTestId('password-submit').click();
    await a.page.getByTestId('password-error').filter({ hasText: 'wrong old password, 4 attempts left' }).waitFor();
    await a.page.locator('input[name=oldPassword]').fill(alice.password);
    const changed = a.page.locator('.toast').filter({ hasText: 'Password changed' }).waitFor();
    await a.page.getByTestId('password-submit').click();
    await a.page.getByTestId('password-dialog').waitFor({ state: 'detached' });
    await changed;

    await a.page.getByTestId('settings-logout').click();
    await a.page.waitForURL(/#\/login/);
    alice.password = 'newPass2026';
    await login(a.page, alice);
    assert.equal(await a.page.getByTestId('me-name').textContent(), 'Alice in Settings');
  });

  it('blocks a friend: the friend can no longer send', async () => {
    await openChat(a.page, bob.id!);
    await a.page.getByTestId('chat-peer-info').click();
    await a.page.getByTestId('friend-details').waitFor();
    await a.page.getByTestId('toggle-block').click();
    await a.page.locator('[data-testid=toggle-block][data-blocked=true]').waitFor();
    await assert.rejects(sendOverApi(bob, alice, 'are you there?'), /This friend is not accepting your messages/);
    await a.page.getByTestId('toggle-block').click();
    await a.page.locator('[data-testid=toggle-block][data-blocked=false]').waitFor();
    await sendOverApi(bob, alice, 'now you are');
  });

  it('deletes a friend after a confirmation and hides the chat', async () => {
    await sendOverApi(carol, alice, 'hello from carol');
    const carolSession = a.page.locator(`[data-testid=session-item][data-peer-id="${carol.id}"]`);
    await a.page.getByTestId('tab-chats').click();
    await carolSession.waitFor();
    await openChat(a.page, carol.id!);
    await a.page.getByTestId('chat-peer-info').click();
    await a.page.getByTestId('delete-friend').click();
    await a.page.getByTestId('friend-confirm-ok').click();
    await a.page.getByTestId('friend-details').waitFor({ state: 'detached' });
    await a.page.getByTestId('tab-chats').click();
    await carolSession.waitFor({ state: 'detached' });
    await a.page.getByTestId('tab-contacts').click();
    await a.page.locator(`[data-testid=friend-item][data-peer-id="${carol.id}"]`).waitFor({ state: 'detached' });
  });
});
