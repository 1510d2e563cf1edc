import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { BASE_URL, contrast, launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, startedReplay, waitUntil, type Session } from './harness';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { adminOverApi, auditorToken, befriendOverApi, operatorToken, rawCall, registerOverApi, sendOverApi, type Account } from './rest';

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
    const chats = op.page.locator('[data-projector="chats.v4"]');
    await chats.waitFor();
    assert.ok(Number(await chats.locator('td').nth(1).textContent()) > 0, 'chats.v4 has a checkpoint');
    await shot(op.page, 'admin-01-projections');
  });

  it('rebuilds every read model from the page while members keep chatting, losing no delta and failing no read', async () => {
    const member = await openSession(browser);
    await login(member.page, bob);
    await openChat(member.page, alice.id!);
    // Traffic runs from before the click until after the rebuild is done: alice sends, bob reads
    // his conversations and history over REST, and bob's page must receive every message.
    const sent: string[] = [];
    const failedReads: string[] = [];
    let rebuilt = false;
    const traffic = (async () => {
      for (let i = 0, afterSwap = 0; afterSwap < 3; i++) {
        if (rebuilt) afterSwap++;
        if (i > 2000) throw new Error('the rebuild did not end');
        const text = `traffic ${i}`;
        await sendOverApi(alice, bob, text);
        sent.push(text);
        for (const path of ['/v1/message/sessionInfo/list', `/v1/message/messagePush/history/list/page?friendMemberId=${alice.id}&queryType=Up&pageSize=20`]) {
          const read = await rawCall('GET', path, bob.token);
          if (read.status !== 200 || read.code !== '200') failedReads.push(`${path}: ${read.status} ${read.code} ${read.info}`);
        }
      }
    })();
    await waitUntil('traffic before the rebuild', async () => sent.length >= 3);
    await op.page.getByRole('button', { name: 'Rebuild' }).click();
    await op.page.getByRole('button', { name: 'Yes, rebuild' }).click();
    await op.page.locator('[data-testid=rebuild][data-state=done]').waitFor({ timeout: 60_000 });
    const beforeDone = sent.length;
    rebuilt = true;
    await traffic;
    await sendOverApi(bob, alice, 'after the rebuild');
    await op.page.getByText('Rebuilt.').waitFor();
    assert.ok(sent.length > beforeDone, 'messages were sent after the swap too');
    assert.deepEqual(failedReads, []);
    const shown = member.page.getByTestId('chat-view');
    for (const text of sent) await shown.getByText(text, { exact: true }).waitFor({ timeout: 10_000 });
    assert.deepEqual(member.errors, []);
    await member.context.close();
    await shot(op.page, 'admin-02-rebuilt');
  });

  it('pages the tenant’s history with a filter and exports it with its checksum', async () => {
    await op.page.getByRole('button', { name: 'History' }).click();
    await op.page.locator('input[name=tenant]').fill('x0001');
    await op.page.locator('select[name=type]').selectOption('MessageSent');
    await op.page.getByRole('button', { name: 'Search' }).click();
    const sent = op.page.locator('[data-testid=events] li[data-type=MessageSent]');
    await sent.first().waitFor();
    assert.equal(await op.page.locator('[data-testid=events] li:not([data-type=MessageSent])').count(), 0);
    assert.ok((await sent.count()) >= 2);

    const [download] = await Promise.all([op.page.waitForEvent('download'), op.page.getByRole('button', { name: 'Export NDJSON' }).click()]);
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    const trailer = JSON.parse(lines.pop()!) as { checksum: string; count: number; tenant: string };
    const body = lines.map((l) => `${l}\n`).join('');
    assert.equal(trailer.checksum, `sha256:${createHash('sha256').update(body).digest('hex')}`);
    assert.equal(trailer.count, lines.length);
    assert.equal(trailer.tenant, 'x0001');
    const types = lines.map((l) => (JSON.parse(l) as { type: string }).type);
    assert.ok(types.every((t) => t === 'MessageSent'), 'the export honours the filter');
    await op.page.getByTestId('exported').waitFor();
    await shot(op.page, 'admin-03-history');
  });

  it('replays an auditor’s whole export of the tenant to the same read models as the log', async () => {
    const token = await auditorToken('ava', 'x0001');
    const auth = { Authorization: `Bearer ${token}` };
    const exported = await fetch(`${BASE_URL}/v1/admin/audit/export`, { headers: auth });
    assert.equal(exported.status, 200);
    const file = await exported.text();
    const trailer = JSON.parse(file.trimEnd().split('\n').pop()!) as { head: number; count: number };
    assert.ok(trailer.count > 0);
    const imported = (await (
      await fetch(`${BASE_URL}/v1/admin/audit/replays/import`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-ndjson' },
        body: file,
      })
    ).json()) as { code: string; info: string; data: { id: string } };
    assert.equal(imported.code, '200', imported.info);
    const ofLog = await rawCall<{ id: string }>('POST', '/v1/admin/audit/replays', token, { position: trailer.head });
    assert.equal(ofLog.code, '200', ofLog.info);
    for (const id of [imported.data.id, ofLog.data.id]) {
      await waitUntil(`replay ${id} done`, async () => (await rawCall<{ state: string }>('GET', `/v1/admin/audit/replays/${id}`, token)).data.state === 'done', 30_000);
    }
    const compared = await rawCall<{ models: { name: string; equal: boolean; firstDifference?: string }[] }>(
      'POST', '/v1/admin/audit/compare', token, { replayA: imported.data.id, replayB: ofLog.data.id });
    assert.equal(compared.code, '200', compared.info);
    assert.ok(compared.data.models.length >= 13);
    assert.deepEqual(compared.data.models.filter((m) => !m.equal), []);
    for (const id of [imported.data.id, ofLog.data.id]) assert.equal((await rawCall('DELETE', `/v1/admin/audit/replays/${id}`, token)).code, '200');
  });

  it('replays the tenant and browses a member’s conversations and history as they stood', async () => {
    await op.page.getByRole('button', { name: 'Replays' }).click();
    await op.page.getByTestId('replays').locator('table').waitFor();
    // Other browser tests replay the same tenant at the same time: this one follows its own.
    const id = await startedReplay(op.page);
    const ready = op.page.locator(`tr[data-replay="${id}"]`).and(op.page.locator('[data-state=done]'));
    await ready.waitFor({ timeout: 30_000 });
    await ready.getByRole('button', { name: 'Browse' }).click();
    await op.page.locator('input[name=member]').fill(alice.account);
    await op.page.getByRole('button', { name: 'Conversations' }).click();
    const withBob = op.page.locator('[data-testid=replay-sessions] li').filter({ hasText: 'after the rebuild' });
    await withBob.waitFor();
    await withBob.locator('button').first().click();
    const history = op.page.getByTestId('replay-history');
    await history.getByText('after the rebuild').waitFor();
    await shot(op.page, 'admin-04-replay');
  });

  it('verifies the tenant’s read models against the log', async () => {
    await op.page.getByRole('button', { name: 'Verify', exact: true }).first().click();
    await op.page.getByTestId('verify').getByRole('button', { name: 'Verify' }).click();
    await op.page.getByTestId('verify-summary').filter({ hasText: /^All \d+ read models equal the log/ }).waitFor({ timeout: 30_000 });
    assert.equal(await op.page.locator('[data-model][data-equal=N]').count(), 0);
    await op.page.locator('[data-model=messages][data-equal=Y]').waitFor();
    await shot(op.page, 'admin-05-verify');
  });

  it('signs an auditor in to its own tenant only, and records what it reads', async () => {
    await op.page.getByRole('button', { name: 'Sign out' }).click();
    await op.page.locator('textarea[name=token]').fill(await auditorToken('ada', 'x0001'));
    await op.page.getByRole('button', { name: 'Sign in' }).click();
    await op.page.getByTestId('admin-who').filter({ hasText: 'Auditor ada of x0001' }).waitFor();
    assert.equal(await op.page.getByRole('button', { name: 'Projections' }).count(), 0);
    assert.equal(await op.page.locator('input[name=tenant]').count(), 0, 'an auditor cannot name another tenant');
    await op.page.locator('select[name=type]').selectOption('AuditAccessed');
    await op.page.getByRole('button', { name: 'Search' }).click();
    const records = op.page.locator('[data-testid=events] li[data-type=AuditAccessed]');
    await records.first().waitFor();
    const actors = await records.evaluateAll((items) => items.map((item) => item.getAttribute('data-actor')));
    assert.ok(actors.includes('operator:e2e'), 'the operator’s reads are recorded');
    assert.ok(actors.includes('auditor:ada'), 'the auditor’s own reads are recorded');
    await shot(op.page, 'admin-06-auditor');

    // Another tenant's auditor sees nothing of x0001.
    const other = `t${Date.now().toString(36)}`;
    await adminOverApi('POST', '/v1/admin/tenant/create', { code: other, name: 'Other' });
    const refused = await rawCall('GET', '/v1/admin/audit/events?tenant=x0001', await auditorToken('zoe', other));
    assert.equal(refused.status, 403);
    assert.equal(refused.info, 'you are not allowed to do this');
    const own = await rawCall('GET', '/v1/admin/audit/events', await auditorToken('zoe', other));
    assert.equal(own.status, 200);
  });

  it('follows the system’s dark preference, readable at the desktop and at 375 px', async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 375, height: 740 }]) {
      const session = await openSession(browser, viewport);
      const { page } = session;
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(`${BASE_URL}/admin/`);
      await page.locator('textarea[name=token]').fill(await operatorToken());
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('[data-projector="chats.v4"]').waitFor();
      await page.locator('input[name=tenant]').fill('x0001');
      await page.getByRole('button', { name: 'History' }).click();
      await page.locator('select[name=type]').waitFor();
      const colours = () =>
        page.evaluate(() => {
          const style = (element: Element) => getComputedStyle(element);
          // What a text is read on: the nearest fill behind it.
          const fill = (element: Element | null): string => {
            for (; element; element = element.parentElement) {
              const colour = style(element).backgroundColor;
              if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
            }
            return 'rgb(255, 255, 255)';
          };
          const admin = document.querySelector('.admin')!;
          const input = document.querySelector('.admin .text-input')!;
          return {
            page: style(admin).backgroundColor,
            texts: [...document.querySelectorAll('.admin h1, .admin label, .admin .muted, .admin .tab, .admin .link-button, .admin .chip')].map(
              (element) => ({ text: element.textContent ?? '', colour: style(element).color, on: fill(element) }),
            ),
            input: { colour: style(input).color, fill: style(input).backgroundColor },
            scheme: style(admin).colorScheme,
          };
        });
      const dark = await colours();
      assert.equal(dark.page, 'rgb(21, 26, 35)');
      assert.equal(dark.scheme, 'dark');
      assert.ok(dark.texts.length > 5, 'texts to check');
      for (const { text, colour, on } of dark.texts) {
        const ratio = contrast(colour, on);
        assert.ok(ratio >= 4.5, `${viewport.width} px: "${text.trim()}" contrast ${ratio.toFixed(2)} is under 4.5`);
      }
      assert.ok(contrast(dark.input.colour, dark.input.fill) >= 4.5, 'the input’s text reads on its fill');
      await shot(page, `admin-dark-${viewport.width}`);

      await page.emulateMedia({ colorScheme: 'light' });
      const light = await colours();
      assert.equal(light.page, 'rgb(243, 245, 249)');
      for (const { text, colour, on } of light.texts) {
        assert.ok(contrast(colour, on) >= 4.5, `light: "${text.trim()}" reads`);
      }
      assert.deepEqual(session.errors, []);
      await session.context.close();
    }
  });

  it('raised no page errors', () => {
    assert.deepEqual(op.errors, []);
  });
});
