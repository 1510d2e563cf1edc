import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  befriend,
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openFixedEntry,
  openSession,
  register,
  shot,
  waitUntil,
  type Session,
  openChat,
} from './harness';

/** Adds a message of the open chat with peer to the member's favourites, as addToFavourites does. */
async function favourite(page: Page, peerId: string, text: string): Promise<void> {
  const status = await page.evaluate(
    async ({ peerId, text }) => {
      const auth = JSON.parse(localStorage.getItem('eventchat.auth') ?? '{}') as { token: string };
      const headers = { Authorization: `Bearer ${auth.token}`, 'Content-Type': 'application/json' };
      const history = await fetch(`/v1/message/messagePush/history/list/page?friendMemberId=${peerId}&pageSize=50`, { headers });
      const messages = ((await history.json()) as { data: { id: string; content: string }[] }).data;
      const message = messages.find((m) => m.content === text);
      if (!message) return 'message not found';
      const kept = await fetch('/v1/chat/favoriteInfo/build', { method: 'POST', headers, body: JSON.stringify({ messageId: message.id }) });
      return ((await kept.json()) as { code: string }).code;
    },
    { peerId, text },
  );
  assert.equal(status, '200');
}

const suite = 'favourites and mass send';

describe(suite, { skip: missingEnv || false, timeout: 120_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let c: Session;
  const alice = newMember('alicep');
  const bob = newMember('bobp');
  const carol = newMember('carolp');

  before(async () => {
    browser = await launchBrowser();
    [a, b, c] = await Promise.all([openSession(browser), openSession(browser), openSession(browser)]);
    await Promise.all([register(a.page, alice), register(b.page, bob), register(c.page, carol)]);
    await Promise.all([login(a.page, alice), login(b.page, bob), login(c.page, carol)]);
    await befriend(a.page, b.page, bob, alice);
    await befriend(a.page, c.page, carol, alice);
  });

  after(async () => {
    await browser?.close();
  });

  it('keeps a message in favourites, edits it, and forwards it to a friend who sees it', async () => {
    const text = `Remember this ${Date.now()}`;
    await openChat(a.page, bob.id!);
    await a.page.getByTestId('composer').fill(text);
    await a.page.getByTestId('composer').press('Enter');
    const bubble = a.page.getByTestId('message').filter({ hasText: text });
    await waitUntil('the message to be sent', async () =>
      ['sent', 'Unread', 'Read'].includes((await bubble.getAttribute('data-status')) ?? ''),
    );
    await favourite(a.page, bob.id!, text);

    await a.page.getByTestId('tab-chats').click();
    await openFixedEntry(a.page, '001');
    await a.page.getByTestId('favourites-view').waitFor();
    const item = a.page.getByTestId('favourite').filter({ hasText: text });
    await item.waitFor();
    assert.match((await item.textContent()) ?? '', new RegExp(alice.account));

    await item.getByTestId('fav-menu').click();
    await item.getByTestId('fav-action-edit').click();
    await item.getByTestId('fav-edit-text').fill(`${text} (edited)`);
    await item.getByTestId('fav-edit-save').click();
    const edited = a.page.getByTestId('favourite').filter({ hasText: `${text} (edited)` });
    await edited.waitFor();

    await edited.getByTestId('fav-menu').click();
    await edited.getByTestId('fav-action-forward').click();
    const dialog = a.page.getByTestId('fav-forward-dialog');
    await dialog.locator(`[data-testid=fav-forward-picker-friend][data-peer-id="${carol.id}"] input`).check();
    await shot(a.page, 'personal-01-forward-dialog');
    await dialog.getByTestId('fav-forward-send').click();
    await dialog.waitFor({ state: 'detached' });

    await openChat(c.page, alice.id!);
    const forwarded = c.page.getByTestId('message').filter({ hasText: `${text} (edited)` });
    await forwarded.getByTestId('forwarded-label').waitFor();
    await shot(c.page, 'personal-02-forward-received');
  });

  it('refuses a multi-forward with no records selected', async () => {
    await openFixedEntry(a.page, '001');
    const first = a.page.getByTestId('favourite').first();
    await first.getByTestId('fav-menu').click();
    await first.getByTestId('fav-action-select').click();
    await a.page.getByTestId('fav-check').first().uncheck();
    await a.page.getByTestId('fav-forward-selected').click();
    await a.page.getByText('Please select the records to forward').waitFor();
  });

  it('sends a mass message to two friends who both receive it, and lists it', async () => {
    const text = `Hello everyone ${Date.now()}`;
    await openFixedEntry(a.page, '002');
    await a.page.getByTestId('mass-view').waitFor();
    await a.page.getByTestId('mass-new').click();
    for (const friend of [bob, carol]) {
      await a.page.locator(`[data-testid=mass-picker-friend][data-peer-id="${friend.id}"] input`).check();
    }
    await a.page.getByTestId('mass-text').fill(text);
    await a.page.getByTestId('mass-send').click();
    const batch = a.page.getByTestId('mass-batch').filter({ hasText: text });
    await batch.waitFor();
    assert.match((await batch.textContent()) ?? '', /2 recipients/);
    await shot(a.page, 'personal-03-mass-list');

    await openChat(b.page, alice.id!);
    await b.page.getByTestId('message').filter({ hasText: text }).waitFor();
    await c.page.getByTestId('message').filter({ hasText: text }).waitFor();

    await batch.getByTestId('mass-again').click();
    await a.page.getByTestId('mass-form').waitFor();
    assert.equal(await a.page.getByTestId('mass-picker-friend').locator('input:checked').count(), 2);
    await a.page.getByRole('button', { name: 'Cancel' }).click();
    await a.page.getByTestId('mass-clear').click();
    await a.page.getByTestId('mass-clear-confirm').click();
    await a.page.getByTestId('mass-empty').waitFor();
    for (const s of [a, b, c]) assert.deepEqual(s.errors, []);
  });
});
