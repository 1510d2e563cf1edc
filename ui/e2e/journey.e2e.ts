// A member's whole journey through the UI: register (with the server ID step and an invitation
// link), log in, add friends, and a group's life (create, admin, mute, leave, dissolve); then the
// interface language switch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  BASE_URL,
  befriend,
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openSession,
  register,
  shot,
  smsCodeFor,
  waitUntil,
  type Member,
  type Session,
} from './harness';
import { adminOverApi, inviteCodeOverApi, registerOverApi } from './rest';

/** A 1 x 1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

const member = (page: Page, id: string) => page.locator(`[data-testid=group-member][data-member-id="${id}"]`);

async function memberAction(page: Page, id: string, label: string): Promise<void> {
  await member(page, id).getByTestId('group-member-more').click();
  await page.getByTestId('group-member-menu').getByRole('menuitem', { name: label }).click();
}

async function addServerId(page: Page, code: string, outcome: string): Promise<string> {
  await page.locator('input[name=tenantCode]').fill(code);
  await page.getByTestId('server-id-add').click();
  const result = page.locator(`[data-testid=server-id-result][data-outcome=${outcome}]`);
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

describe('journey: register, log in, friends, a group’s life', { skip: missingEnv || false, timeout: 180_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let c: Session;
  const alice: Member = newMember('alicej');
  const bob: Member = newMember('bobj');
  const carol: Member = newMember('carolj');
  const groupName = `Trip ${Date.now().toString(36)}`;
  let groupId = '';

  before(async () => {
    browser = await launchBrowser();
    [a, b, c] = await Promise.all([openSession(browser), openSession(browser), openSession(browser)]);
  });

  after(async () => {
    await browser?.close();
  });

  it('registers through an invitation link, checking server IDs with the tenant checker', async () => {
    const page = a.page;
    const inviteCode = await inviteCodeOverApi(await registerOverApi(newMember('invitej')));
    await page.goto(`${BASE_URL}/#/register?inviteCode=${inviteCode}&tenantCode=x0001`);
    assert.equal(await page.locator('input[name=inviteCode]').inputValue(), inviteCode);
    assert.equal(await page.locator('input[name=tenantCode]').inputValue(), 'x0001');

    assert.equal(await addServerId(page, 'zz9999', 'invalid'), 'tenant number invalid');
    assert.equal(await addServerId(page, 'x0001', 'exists'), 'already exists');
    const fresh = `j${Date.now().toString(36).slice(-6)}`;
    await adminOverApi('POST', '/v1/admin/tenant/create', { code: fresh, name: 'Journey' });
    assert.equal(await addServerId(page, fresh, 'added'), 'Tenant added successfully');
    assert.equal(await addServerId(page, fresh, 'exists'), 'already exists', 'an added ID is known from then on');
    const known = await page.locator('datalist option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(known, ['x0001', fresh]);
    await page.locator('input[name=tenantCode]').fill('x0001');

    await page.locator('input[name=phone]').fill(alice.phone);
    await page.getByTestId('send-code').click();
    await page.getByTestId('send-code').filter({ hasText: /Resend in \d+s/ }).waitFor();
    assert.equal(await page.getByTestId('send-code').isDisabled(), true, 'no second code during the countdown');
    const code = await smsCodeFor(alice.phone);
    await page.locator('input[name=smsCode]').fill(code === '000000' ? '111111' : '000000');
    await page.locator('input[name=account]').fill(alice.account);
    await page.locator('input[name=password]').fill(alice.password);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.locator('.field-error').filter({ hasText: /agree/i }).waitFor();
    await page.locator('input[name=agreement]').check();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /^Registration failed: \S/ }).waitFor();
    await page.locator('input[name=smsCode]').fill(code);
    await page.locator('input[name=account]').fill(alice.account);
    await page.locator('input[name=password]').fill(alice.password);
    await shot(page, 'journey-register');
    const sent = page.waitForRequest((request) => request.url().endsWith('/v1/member/memberInfo/register'));
    const welcomed = page.locator('.toast').filter({ hasText: 'Welcome! Your account is ready' }).waitFor();
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await welcomed;
    const body = (await sent).postDataJSON() as Record<string, string>;
    assert.equal(body.inviteCode, inviteCode);
    assert.equal(body.tenantCode, 'x0001');
    // Signed up is signed in: the app opens; logging out leads to the login page for the next step.
    await page.waitForURL(/\/1\/\d+\/#\/$/);
    await page.getByTestId('me-name').waitFor();
    await page.getByRole('button', { name: 'Log out', exact: true }).click();
    await page.waitForURL(/#\/login/);

    await Promise.all([register(b.page, bob), register(c.page, carol)]);
  });

  it('logs the three members in', async () => {
    // The app path is another page: the login's toast is shown on it.
    const toast = a.page.getByRole('status').filter({ hasText: 'Login success' }).waitFor();
    await Promise.all([login(a.page, alice), login(b.page, bob), login(c.page, carol), toast]);
    for (const m of [alice, bob, carol]) assert.match(m.id ?? '', /^\d+$/);
  });

  it('adds two friends: each accepts the request', async () => {
    await befriend(a.page, b.page, bob, alice);
    await befriend(a.page, c.page, carol, alice);
  });

  it('creates a group with both friends, its avatar compressed to JPEG before upload', async () => {
    const page = a.page;
    await page.getByTestId('tab-contacts').click();
    await page.getByTestId('open-groups').click();
    await page.getByTestId('group-create-open').click();
    await page.getByTestId('group-avatar-input').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PIXEL });
    const picture = page.getByTestId('group-create').locator('img.avatar');
    await waitUntil('the avatar to upload', async () => ((await picture.getAttribute('src')) ?? '').includes('/v1/sso/im/file/'));
    const stored = await picture.evaluate(async (img) => {
      const bytes = new Uint8Array(await (await fetch((img as HTMLImageElement).src)).arrayBuffer());
      return [bytes[0], bytes[1], bytes[2]];
    });
    assert.deepEqual(stored, [0xff, 0xd8, 0xff], 'the picked PNG was stored as a JPEG');
    await page.getByTestId('group-name').fill(groupName);
    await page.getByTestId('group-create-next').click();
    for (const friend of [bob, carol]) {
      await page.locator(`[data-testid=group-create-friends-friend][data-peer-id="${friend.id}"] input`).check();
    }
    await page.getByTestId('group-create-submit').click();
    const chat = page.locator('[data-testid=chat-view][data-chat-type=Group]');
    await chat.waitFor();
    groupId = (await chat.getAttribute('data-peer-id')) ?? '';
    await page.getByTestId('chat-group-info').click();
    const details = page.locator(`[data-testid=group-details][data-my-role=Owner][data-group-id="${groupId}"]`);
    await details.waitFor();
    await waitUntil('three members', async () => (await page.getByTestId('group-member').count()) === 3);
  });

  it('promotes bob to admin and mutes carol', async () => {
    await memberAction(a.page, bob.id!, 'Set as admin');
    await member(a.page, bob.id!).and(a.page.locator('[data-role=Admin]')).waitFor();

    await memberAction(a.page, carol.id!, 'Mute');
    await a.page.locator('[data-testid=group-mute-option][data-minutes="10"]').click();
    await member(a.page, carol.id!).getByTestId('group-member-muted').waitFor();

    await b.page.getByTestId('tab-contacts').click();
    await b.page.getByTestId('open-groups').click();
    await b.page.getByTestId('group-section-managed').locator(`[data-group-id="${groupId}"]`).click();
    await b.page.locator('[data-testid=group-details][data-my-role=Admin]').waitFor();
    await member(b.page, carol.id!).getByTestId('group-member-muted').waitFor();
    await shot(b.page, 'journey-admin');
  });

  it('opens a conversation by /historyPage/{id}, titled with its label, and favourites by /favorite', async () => {
    const page = c.page;
    await page.goto(`${BASE_URL}/1/${carol.id}/#/historyPage/${alice.id}`);
    await page.locator(`[data-testid=chat-view][data-peer-id="${alice.id}"][data-chat-type=Friend]`).waitFor();
    await waitUntil('the friend title', async () => (await page.title()) === `[Friend] ${alice.account}`);
    await page.goto(`${BASE_URL}/1/${carol.id}/#/historyPage/${groupId}`);
    await page.locator(`[data-testid=chat-view][data-peer-id="${groupId}"][data-chat-type=Group]`).waitFor();
    await waitUntil('the group title', async () => (await page.title()) === `[Group] ${groupName}`);
    await page.goto(`${BASE_URL}/1/${carol.id}/#/favorite`);
    await page.getByTestId('favourites-view').waitFor();
  });

  it('lets bob leave; the owner sees two members', async () => {
    await b.page.getByTestId('group-leave').click();
    await b.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await b.page.getByTestId('group-details').waitFor({ state: 'detached' });
    await waitUntil('bob to leave the owner’s list', async () => (await member(a.page, bob.id!).count()) === 0);
    assert.equal(await a.page.getByTestId('group-member').count(), 2);
  });

  it('dissolves the group', async () => {
    await a.page.getByTestId('group-dissolve').click();
    await a.page.getByTestId('group-confirm').getByTestId('confirm-ok').click();
    await a.page.getByTestId('group-details').waitFor({ state: 'detached' });
    await c.page.getByText(`The group ${groupName} has been dissolved`).first().waitFor();
  });

  it('raised no page errors', () => {
    assert.deepEqual([...a.errors, ...b.errors, ...c.errors], []);
  });
});

describe('language switch: English, 中文, Tiếng Việt', { skip: missingEnv || false, timeout: 60_000 }, () => {
  let browser: Browser;
  let s: Session;

  before(async () => {
    browser = await launchBrowser();
    s = await openSession(browser);
  });

  after(async () => {
    await browser?.close();
  });

  const cases = [
    { label: '中文', lang: 'zh-CN', title: '欢迎', login: '登录', signup: '注册' },
    { label: 'Tiếng Việt', lang: 'vi', title: 'Chào mừng', login: 'Đăng nhập', signup: 'Đăng ký' },
    { label: 'EN', lang: 'en', title: 'Welcome', login: 'Log in', signup: 'Sign up' },
  ];

  it('changes the visible texts and keeps the choice across a reload', async () => {
    const page = s.page;
    await page.goto(`${BASE_URL}/#/landing`);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    for (const want of cases) {
      await page.getByRole('radio', { name: want.label }).click();
      for (let round = 0; round < 2; round++) {
        await page.getByRole('heading', { name: want.title, exact: true }).waitFor();
        await page.getByRole('button', { name: want.login, exact: true }).waitFor();
        await page.getByRole('button', { name: want.signup, exact: true }).waitFor();
        assert.equal(await page.getByRole('radio', { name: want.label }).getAttribute('aria-checked'), 'true');
        if (round === 0) await page.reload();
      }
      assert.equal(await page.evaluate(() => document.documentElement.lang), want.lang);
      if (want.label === 'Tiếng Việt') await shot(page, 'journey-language-vi');
    }
  });

  it('carries the language to the login page and its checks', async () => {
    const page = s.page;
    await page.getByRole('radio', { name: '中文' }).click();
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL(/#\/login/);
    await page.locator('form button[type=submit]').click();
    await page.getByText('请阅读并勾选用户协议').waitFor();
    await page.getByRole('radio', { name: 'EN' }).click();
    await page.getByText('Please read and tick the user agreement').waitFor();
  });

  it('raised no page errors', () => {
    assert.deepEqual(s.errors, []);
  });
});
