import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launchBrowser, missingEnv, newMember, openSession, shot, startedReplay, type Session } from './harness';
import { auditorToken, befriendOverApi, operatorToken, rawCall, registerOverApi, sendOverApi, type Account } from './rest';

/** A time as a datetime-local input takes it, in the browser's (this machine's) zone. */
function pickerValue(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signIn(page: Page, token: string): Promise<void> {
  await page.goto(`${BASE_URL}/admin/`);
  await page.locator('textarea[name=token]').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('admin-who').waitFor();
}

/**
 * Nothing sticks out to the right of a phone's window: neither the page nor its scrolling main
 * column is wider than the window, and no element but those inside a deliberate side scroller
 * (a wide table, the raw JSON, the tab strip) reaches past its edge.
 */
async function noHorizontalOverflow(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector('.admin-main')!;
    const scrollers = '.admin-scroll, .admin-table, .admin-data, .admin-tabs';
    const outside = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.right > width + 1 && !el.parentElement?.closest(scrollers);
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { page: document.documentElement.scrollWidth, main: main.scrollWidth, width, outside };
  });
  assert.ok(found.page <= found.width && found.main <= found.width, `${where}: ${found.page}/${found.main} px wide in ${found.width} px`);
  assert.deepEqual(found.outside.slice(0, 5), [], `${where}: past the right edge`);
}

describe('the audit page, read by an auditor', { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let au: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let groupName: string;
  let start: number;
  let beforeGroup: number;
  let end: number;
  let replayId: string;

  before(async () => {
    browser = await launchBrowser();
    au = await openSession(browser);
    start = Math.floor(Date.now() / 1000) * 1000;
    alice = await registerOverApi(newMember('auda'));
    bob = await registerOverApi(newMember('audb'));
    carol = await registerOverApi(newMember('audc'));
    await befriendOverApi(alice, bob);
    await befriendOverApi(alice, carol);
    await sendOverApi(alice, bob, 'meet at the trailhead');
    const back = await rawCall<{ id: string }>('POST', '/v1/message/send', bob.token, {
      uuid: `e2e-recall-${Date.now()}`, chatType: 'Friend', to: alice.id, msgType: 'Text', content: 'this one goes back' });
    assert.equal(back.code, '200', back.info);
    assert.equal((await rawCall('PUT', '/v1/message/recall', bob.token, { id: back.data.id })).code, '200');
    // The pickers count whole seconds: the group comes a second after the chat.
    await pause(1100);
    beforeGroup = Math.floor(Date.now() / 1000) * 1000;
    groupName = `Weekend Hikers ${Date.now().toString(36).slice(-4)}`;
    const group = await rawCall<{ groupId: string }>('POST', '/v1/chat/groupInfo/build', alice.token, { name: groupName, memberIds: [bob.id, carol.id] });
    assert.equal(group.code, '200', group.info);
    const role = await rawCall('PUT', '/v1/chat/groupInfo/setMemberRole', alice.token, { groupId: group.data.groupId, memberId: carol.id, role: 'Admin' });
    assert.equal(role.code, '200', role.info);
    end = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    await signIn(au.page, await auditorToken('ines', 'x0001'));
  });

  after(async () => {
    await browser?.close();
  });

  const lines = () => au.page.locator('[data-testid=events] li');
  const search = async () => {
    await au.page.getByRole('button', { name: 'Search' }).click();
    await au.page.locator('[data-testid=events]').waitFor();
  };

  it('reads the chosen time range as lines with names and accounts, the raw data a click away', async () => {
    await au.page.locator('input[name=from]').fill(pickerValue(start));
    await au.page.locator('input[name=to]').fill(pickerValue(end));
    await search();
    const sent = lines().filter({ hasText: 'meet at the trailhead' });
    await sent.waitFor();
    assert.match(await sent.getByTestId('event-line').innerText(), new RegExp(`@${alice.account}\\)? sent .*@${bob.account}\\)?: meet at the trailhead$`));
    const promoted = lines().filter({ hasText: `became Admin of ${groupName}` });
    assert.match(await promoted.getByTestId('event-line').innerText(), new RegExp(`^.*@${carol.account}\\)? became Admin of ${groupName}$`));
    assert.match(await lines().filter({ hasText: 'recalled a message' }).first().innerText(), new RegExp(`@${bob.account}\\)? recalled a message`));
    assert.ok(!(await au.page.getByTestId('events').innerText()).includes(carol.id!), 'no bare member id in the lines');
    const times = (await lines().evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-time'))))) as number[];
    assert.ok(times.every((t) => t >= start && t < end), 'every event lies in the range');

    await promoted.getByRole('button', { name: 'Raw data' }).click();
    const raw = promoted.getByTestId('event-raw');
    await raw.waitFor();
    assert.match(await raw.innerText(), new RegExp(`"member": "${carol.id}"[\\s\\S]*"role": "Admin"`));
    await shot(au.page, 'audit-01-lines');
    await promoted.getByRole('button', { name: 'Hide raw data' }).click();
    await raw.waitFor({ state: 'detached' });

    // A range that ends before the group leaves the group out.
    await au.page.locator('input[name=to]').fill(pickerValue(beforeGroup));
    await search();
    await lines().filter({ hasText: 'meet at the trailhead' }).waitFor();
    assert.equal(await lines().filter({ hasText: groupName }).count(), 0);
  });

  it('says it in Chinese and Vietnamese too', async () => {
    await au.page.locator('input[name=to]').fill(pickerValue(end));
    await search();
    await au.page.getByRole('radio', { name: '中文' }).click();
    await lines().filter({ hasText: `成为 ${groupName} 的管理员` }).waitFor();
    await au.page.getByRole('radio', { name: 'Tiếng Việt' }).click();
    await lines().filter({ hasText: `đã trở thành quản trị viên của ${groupName}` }).waitFor();
    await au.page.getByRole('radio', { name: 'EN' }).click();
  });

  it('filters by an event type picked from the list', async () => {
    await au.page.locator('select[name=type]').selectOption('GroupMemberRoleChanged');
    await search();
    await lines().filter({ hasText: `became Admin of ${groupName}` }).waitFor();
    const types = await lines().evaluateAll((items) => items.map((i) => i.getAttribute('data-type')));
    assert.ok(types.length >= 1 && types.every((t) => t === 'GroupMemberRoleChanged'), types.join());
  });

  it('looks members up by phone or account, and says when the tenant has none', async () => {
    await au.page.locator('select[name=type]').selectOption('');
    await au.page.locator('input[name=member]').fill('nobody-has-this');
    await au.page.getByRole('button', { name: 'Find' }).click();
    await au.page.getByText('No member of this tenant has that account or phone.').waitFor();

    await au.page.locator('input[name=member]').fill(carol.phone);
    await au.page.getByRole('button', { name: 'Find' }).click();
    await au.page.getByTestId('member-chosen').filter({ hasText: `@${carol.account}` }).waitFor();
    await search();
    // The answer holds carol's doings and nobody else's.
    await au.page.waitForFunction((id) => {
      const actors = [...document.querySelectorAll('[data-testid=events] li')].map((i) => i.getAttribute('data-actor'));
      return actors.length > 0 && actors.every((a) => a === id);
    }, carol.id, { timeout: 10_000 });
    await au.page.getByRole('button', { name: 'Anyone' }).click();
  });

  it('browses a replay by account, as a timeline of the conversation as it stood', async () => {
    await au.page.getByRole('button', { name: 'Replays' }).click();
    await au.page.getByTestId('replays').locator('table').waitFor();
    // Other browser tests replay the same tenant at the same time: this one follows its own.
    replayId = await startedReplay(au.page);
    const ready = au.page.locator(`tr[data-replay="${replayId}"]`).and(au.page.locator('[data-state=done]'));
    await ready.waitFor({ timeout: 30_000 });
    await ready.getByRole('button', { name: 'Browse' }).click();
    await au.page.locator('input[name=member]').fill(alice.account);
    await au.page.getByRole('button', { name: 'Conversations' }).click();
    await au.page.getByTestId('replay-member').filter({ hasText: `@${alice.account}` }).waitFor();
    const withBob = au.page.locator('[data-testid=replay-sessions] li').filter({ hasText: bob.account });
    await withBob.locator('button').first().click();
    const timeline = au.page.getByTestId('replay-history');
    const said = timeline.locator('li').filter({ hasText: 'meet at the trailhead' });
    await said.waitFor();
    assert.match(await said.innerText(), new RegExp(`@${alice.account}`));
    await timeline.locator('li').filter({ hasText: '(recalled)' }).filter({ hasText: `@${bob.account}` }).waitFor();
    assert.equal(await timeline.getByText('this one goes back').count(), 0, 'a recalled text is not shown');
    await au.page.getByText(/The conversation as it stood at/).waitFor();
    await shot(au.page, 'audit-02-timeline');
  });

  it('asks before a rebuild and says when it has finished', async () => {
    const op = await openSession(browser);
    await signIn(op.page, await operatorToken());
    const finished = op.page.getByTestId('rebuild-finished');
    const earlier = (await finished.count()) ? await finished.innerText() : '';
    await op.page.getByRole('button', { name: 'Rebuild' }).click();
    await op.page.getByTestId('rebuild-confirm').waitFor();
    await shot(op.page, 'audit-03-rebuild-confirm');
    await op.page.getByRole('button', { name: 'Cancel' }).click();
    await op.page.getByTestId('rebuild-confirm').waitFor({ state: 'detached' });
    assert.equal(await op.page.locator('[data-testid=rebuild][data-state=running]').count(), 0, 'no rebuild without a yes');

    await op.page.getByRole('button', { name: 'Rebuild' }).click();
    await op.page.getByRole('button', { name: 'Yes, rebuild' }).click();
    await op.page.locator('[data-testid=rebuild][data-state=done]').waitFor({ timeout: 60_000 });
    await op.page.getByTestId('rebuild-finished').filter({ hasNotText: earlier || '\u0000' }).waitFor({ timeout: 60_000 });
    await op.page.locator('[data-testid=rebuild][data-state=done]').getByText('Rebuilt.', { exact: true }).waitFor();
    assert.match(await finished.innerText(), /^\d+ events folded in \d+\.\d s, finished at .+\.$/);
    assert.match(await op.page.getByTestId('rebuild-held').innerText(), /^While it swapped in, new messages waited \d+ ms\.$/);
    await shot(op.page, 'audit-04-rebuilt');
    assert.deepEqual(op.errors, []);
    await op.context.close();
  });

  it('fits a 375 px phone on every tab', async () => {
    const phone = await openSession(browser, { width: 375, height: 740 });
    await signIn(phone.page, await operatorToken());
    await noHorizontalOverflow(phone.page, 'projections');
    await phone.page.getByRole('button', { name: 'Rebuild' }).click();
    await noHorizontalOverflow(phone.page, 'rebuild confirmation');
    await phone.page.getByRole('button', { name: 'Cancel' }).click();
    await phone.page.getByRole('button', { name: 'History' }).click();
    await phone.page.locator('input[name=tenant]').fill('x0001');
    await phone.page.locator('input[name=from]').fill(pickerValue(start));
    await phone.page.getByRole('button', { name: 'Search' }).click();
    const promoted = phone.page.locator('[data-testid=events] li').filter({ hasText: `became Admin of ${groupName}` });
    await promoted.getByRole('button', { name: 'Raw data' }).click();
    await promoted.getByTestId('event-raw').waitFor();
    await noHorizontalOverflow(phone.page, 'history with raw data open');
    await shot(phone.page, 'audit-05-phone-history');
    await phone.page.getByRole('button', { name: 'Replays' }).click();
    const replay = phone.page.locator(`tr[data-replay="${replayId}"]`);
    await replay.waitFor();
    await noHorizontalOverflow(phone.page, 'replays');
    await replay.getByRole('button', { name: 'Browse' }).click();
    await phone.page.locator('input[name=member]').fill(alice.account);
    await phone.page.getByRole('button', { name: 'Conversations' }).click();
    await phone.page.locator('[data-testid=replay-sessions] li').filter({ hasText: bob.account }).locator('button').first().click();
    await phone.page.getByTestId('replay-history').getByText('meet at the trailhead').waitFor();
    await noHorizontalOverflow(phone.page, 'replay timeline');
    await shot(phone.page, 'audit-06-phone-timeline');
    await phone.page.getByRole('button', { name: 'Back' }).click();
    await phone.page.getByRole('button', { name: 'Verify', exact: true }).first().click();
    await noHorizontalOverflow(phone.page, 'verify');
    assert.deepEqual(phone.errors, []);
    await phone.context.close();
  });

  it('raised no page errors', () => {
    assert.deepEqual(au.errors, []);
  });
});
