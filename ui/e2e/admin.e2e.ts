import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { BASE_URL, launchBrowser, missingEnv, newMember, openSession, shot, type Session } from './harness';
import { befriendOverApi, operatorToken, registerOverApi, sendOverApi, type Account } from './rest';

describe('the admin page', { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let op: Session;
  let alice: Account;
  let bob: Account;

  before(async () => {
    browser = await launchBrowser();
    op = await openSession(browser);
    alice = await registerOverApi(newMember('adma'));
    bob = await registerOverApi(newMember('admb'));
    await befriendOverApi(alice, bob);
    await sendOverApi(alice, bob, 'before the rebuild');
  });

  after(async () => {
    await browser?.close();
  });

  it('refuses what is not an operator or auditor token', async () => {
    await op.page.goto(`${BASE_URL}/admin/`);
    await op.page.locator('textarea[name=token]').fill('not-a-token');
    await op.page.getByRole('button', { name: 'Sign in' }).click();
    await op.page.getByText('This is not an operator or auditor token').waitFor();
  });

  it('shows an operator every projector with its checkpoint and lag', async () => {
    await op.page.locator('textarea[name=token]').fill(await operatorToken());
    await op.page.getByRole('button', { name: 'Sign in' }).click();
    await op.page.getByTestId('admin-who').filter({ hasText: 'Operator e2e' }).waitFor();
    const chats = op.page.locator('[data-projector="chats.v1"]');
    await chats.waitFor();
    assert.ok(Number(await chats.locator('td').nth(1).textContent()) > 0, 'chats.v1 has a checkpoint');
    await shot(op.page, 'admin-01-projections');
  });

  it('rebuilds every read model from the page while members keep chatting', async () => {
    await op.page.getByRole('button', { name: 'Rebuild' }).click();
    await sendOverApi(bob, alice, 'during the rebuild');
    await op.page.locator('[data-testid=rebuild][data-state=done]').waitFor({ timeout: 60_000 });
    await op.page.getByText('Rebuilt.').waitFor();
    await shot(op.page, 'admin-02-rebuilt');
  });

  it('raised no page errors', () => {
    assert.deepEqual(op.errors, []);
  });
});
