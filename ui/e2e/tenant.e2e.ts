import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { befriend, launchBrowser, login, missingEnv, newMember, openChat, openSession, register, shot, type Session } from './harness';
import { adminOverApi } from './rest';

describe('tenant switches, presence and session end', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  const alice = newMember('tena');
  const bob = newMember('tenb');

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    b = await openSession(browser);
    await Promise.all([register(a.page, alice), register(b.page, bob)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
    await befriend(a.page, b.page, bob, alice);
  });

  after(async () => {
    await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { hasVoiceCall: 'true' } }).catch(() => null);
    await browser?.close();
  });

  it('shows a friend’s online dot while its page is connected', async () => {
    const aliceAtBob = b.page.locator(`[data-testid=friend-item][data-peer-id="${alice.id}"]`);
    await aliceAtBob.locator('[data-testid=online-dot]').waitFor();
    await shot(b.page, 'tenant-01-online-dot');
  });

  it('hides the call buttons when the tenant turns calls off', async () => {
    await openChat(b.page, alice.id!);
    await b.page.getByTestId('call-voice').waitFor();
    await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { hasVoiceCall: 'false' } });
    await b.page.reload();
    await openChat(b.page, alice.id!);
    await b.page.getByTestId('call-voice').waitFor({ state: 'detached' });
    await shot(b.page, 'tenant-02-no-calls');
    await adminOverApi('PUT', '/v1/admin/tenant/settings', { code: 'x0001', settings: { hasVoiceCall: 'true' } });
  });

  it('logs a banned member out with the spec’s notice (31 Disable); friends see it go offline', async () => {
    await adminOverApi('PUT', '/v1/admin/member/ban', { tenant: 'x0001', account: alice.account });
    await a.page.getByRole('alert').filter({ hasText: 'You have been banned by the backend administrator' }).waitFor();
    await shot(a.page, 'tenant-03-banned');
    await a.page.waitForURL(/\/#\/login$/);
    assert.equal(await a.page.evaluate(() => localStorage.getItem('eventchat.auth')), null);
    const aliceAtBob = b.page.locator(`[data-testid=friend-item][data-peer-id="${alice.id}"]`);
    await b.page.getByTestId('tab-contacts').click();
    await aliceAtBob.locator('[data-testid=online-dot]').waitFor({ state: 'detached' });
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
