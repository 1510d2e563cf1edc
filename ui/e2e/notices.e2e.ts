import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, launchBrowser, login, missingEnv, newMember, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, registerOverApi, sendOverApi, type Account } from './rest';

const suite = 'notifications';

describe(suite, { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let b: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let dave: Account;

  before(async () => {
    browser = await launchBrowser();
    b = await openSession(browser);
    [alice, bob, carol, dave] = await Promise.all([
      registerOverApi(newMember('alicen')),
      registerOverApi(newMember('bobn')),
      registerOverApi(newMember('caroln')),
      registerOverApi(newMember('daven')),
    ]);
    await login(b.page, bob);
  });

  after(async () => {
    await browser?.close();
  });

  const badge = () => b.page.getByTestId('fixed-badge-003');
  const notices = () => b.page.getByTestId('notice');

  it('counts notices live on the fixed entry 003 and lists them by tab', async () => {
    await b.page.getByTestId('tab-chats').click();
    assert.equal(await badge().count(), 0);
    // dave's and carol's requests stay pending (an answered one is read once seen): bob has two
    // friend notices, both unread
    for (const [from, content] of [
      [dave, 'hello from dave'],
      [carol, 'hello from carol'],
    ] as const) {
      await fetch(`${process.env.IM_BASE_URL}/v1/chat/applyInfo/build`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${from.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ friendMemberId: bob.id, content }),
      });
    }
    await badge().filter({ hasText: '2' }).waitFor();

    await b.page.getByTestId('fixed-entry-003').click();
    await b.page.getByTestId('notices-view').waitFor();
    await waitUntil('two notices', async () => (await notices().count()) === 2);
    assert.equal(await notices().first().getByTestId('notice-content').textContent(), `${carol.account} sent you a friend request`);
    assert.equal(await notices().first().getAttribute('data-read-flag'), 'Unread');
    await b.page.getByText('hello from carol').waitFor();
    await shot(b.page, 'notices-1-list');
    await b.page.getByTestId('notice-tab-badge-friends').filter({ hasText: '2' }).waitFor();

    await b.page.getByTestId('notice-tab-system').click();
    await b.page.getByTestId('notices-empty').waitFor();
    await b.page.getByTestId('notice-tab-friends').click();
    await waitUntil('the friends tab', async () => (await notices().count()) === 2);
  });

  it('reads one, then all, and the badges follow', async () => {
    await notices().nth(1).getByTestId('notice-read').click();
    await b.page.locator('[data-testid=notice][data-read-flag=Read]').waitFor();
    await badge().filter({ hasText: '1' }).waitFor();
    await b.page.getByTestId('notice-read-all').click();
    await waitUntil('no unread notice', async () => (await b.page.locator('[data-testid=notice][data-read-flag=Unread]').count()) === 0);
    await waitUntil('the badge to go', async () => (await badge().count()) === 0);
    await shot(b.page, 'notices-2-read');
  });

  it('deletes a selected batch after a confirmation', async () => {
    await b.page.getByTestId('notice-tab-all').click();
    await b.page.getByTestId('notice-select').click();
    await notices().first().getByTestId('notice-check').check();
    await b.page.getByTestId('notice-delete-selected').click();
    const cancelled = b.page.locator('.toast').filter({ hasText: 'Deletion cancelled' }).waitFor();
    await b.page.getByTestId('notice-confirm').getByTestId('confirm-cancel').click();
    await cancelled;
    assert.equal(await notices().count(), 2);
    await b.page.getByTestId('notice-delete-selected').click();
    const deleted = b.page.locator('.toast').filter({ hasText: 'Delete success' }).waitFor();
    await b.page.getByTestId('notice-confirm').getByTestId('confirm-ok').click();
    await deleted;
    await waitUntil('one notice left', async () => (await notices().count()) === 1);
  });

  it('acknowledges what it caught up with after a reconnect', async () => {
    await befriendOverApi(alice, bob);
    await b.page.context().setOffline(true);
    await sendOverApi(alice, bob, 'sent while bob was away');
    await b.page.context().setOffline(false);
    await waitUntil('the device to acknowledge the missed message', async () => {
      const page = await api<{ records: unknown[]; since: number }>(b.page, 'GET', '/v1/message/messagePush/realtime/list');
      const all = await api<{ records: { content: string; position: number }[] }>(
        b.page,
        'GET',
        '/v1/message/messagePush/realtime/list?since=0',
      );
      const missed = all.records.find((m) => m.content === 'sent while bob was away');
      return page.records.length === 0 && missed !== undefined && page.since >= missed.position;
    });
    assert.deepEqual(b.errors, []);
  });
});
