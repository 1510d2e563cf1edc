import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { api, openChat, launchBrowser, login, missingEnv, newMember, openSession, register, shot, type Session } from './harness';

describe('two friends call each other', { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  const alice = newMember('calla');
  const bob = newMember('callb');

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    b = await openSession(browser);
    await Promise.all([register(a.page, alice), register(b.page, bob)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
    await api(a.page, 'POST', '/v1/chat/applyInfo/build', { friendMemberId: bob.id, content: 'hi' });
    const applies = await api<{ records: { id: string }[] }>(
      b.page,
      'GET',
      '/v1/chat/applyInfo/queryFriendApplyInfoPages?pageSize=99&curPage=1',
    );
    await api(b.page, 'PUT', '/v1/chat/applyInfo/modify', { id: applies.records[0].id, status: 'accepted' });
    await Promise.all([openChat(a.page, bob.id!), openChat(b.page, alice.id!)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('lets B reject A’s voice call; both see the rejected call record', async () => {
    await a.page.getByTestId('call-voice').click();
    await a.page.getByTestId('call-outgoing').getByText('Calling…').waitFor();
    const dialog = b.page.getByTestId('call-incoming');
    await dialog.getByText('Incoming voice call').waitFor();
    await shot(a.page, 'calls-01-outgoing');
    await shot(b.page, 'calls-02-incoming');
    await dialog.getByTestId('call-reject').click();
    await dialog.waitFor({ state: 'detached' });
    await a.page.getByTestId('call-outgoing').waitFor({ state: 'detached' });
    for (const page of [a.page, b.page]) {
      const record = page.locator('[data-testid=call-record][data-outcome=rejected][data-media=voice]');
      await record.getByText('Rejected').waitFor();
    }
    await shot(b.page, 'calls-03-rejected-record');
  });

  it('lets B accept a video call: in call with a timer, minimised, then hung up as completed', async () => {
    await a.page.getByTestId('call-video').click();
    await b.page.getByTestId('call-incoming').getByText('Incoming video call').waitFor();
    await b.page.getByTestId('call-accept').click();
    for (const page of [a.page, b.page]) {
      const view = page.getByTestId('call-inCall');
      await view.getByTestId('call-media-unavailable').waitFor();
    }
    await shot(a.page, 'calls-04-in-call');
    await a.page.getByTestId('call-minimise').click();
    await a.page.getByTestId('call-bar').getByTestId('call-timer').waitFor();
    assert.equal(await a.page.getByTestId('call-voice').isDisabled(), true, 'no second call while in one');
    await shot(a.page, 'calls-05-minimised');
    await a.page.getByTestId('call-bar').getByTestId('call-hang-up').click();
    for (const page of [a.page, b.page]) {
      await page.getByTestId('call-inCall').waitFor({ state: 'detached' });
      await page.locator('[data-testid=call-record][data-outcome=completed][data-media=video]').getByText(/^Completed · \d+:\d\d$/).waitFor();
    }
    await a.page.getByTestId('call-bar').waitFor({ state: 'detached' });
  });

  it('raised no page errors', () => {
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
