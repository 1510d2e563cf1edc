// Shared pieces of the browser tests: Debian's chromium through playwright-core, members made
// through the real UI, SMS codes read from the server's outbox file.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const BASE_URL = (process.env.IM_BASE_URL ?? '').replace(/\/+$/, '');
export const DATA_DIR = process.env.IM_DATA_DIR ?? '';
export const SHOTS_DIR = path.resolve(process.env.IM_E2E_SHOTS ?? 'e2e/shots');

export const missingEnv = !BASE_URL || !DATA_DIR ? 'set IM_BASE_URL and IM_DATA_DIR to run the browser tests' : '';

/** A name for the server that is not localhost: a page loaded over http from it has no crypto.subtle. */
export const INSECURE_HOST = 'chat.test';

export function insecureUrl(): string {
  const url = new URL(BASE_URL);
  url.hostname = INSECURE_HOST;
  return url.origin;
}

export function launchBrowser(): Promise<Browser> {
  const server = new URL(BASE_URL || 'http://127.0.0.1');
  return chromium.launch({
    executablePath: process.env.IM_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--host-resolver-rules=MAP ${INSECURE_HOST} ${server.hostname}`,
    ],
  });
}

/**
 * The one device the tests sign in from, browser pages and REST set-ups alike: a login from a
 * User-Agent a member has not used before gets a new-device verification notice.
 */
export const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

export interface Member {
  phone: string;
  account: string;
  password: string;
  /** the member id, known once logged in (from the app path /1/{id}/) */
  id?: string;
}

function randomDigits(count: number): string {
  let digits = '';
  while (digits.length < count) digits += Math.floor(Math.random() * 10);
  return digits;
}

export function newMember(tag: string): Member {
  const stamp = Date.now().toString(36).slice(-5);
  return {
    phone: `1${3 + Math.floor(Math.random() * 7)}${randomDigits(9)}`,
    account: `${tag}${stamp}${randomDigits(3)}`,
    password: 'pass1234',
  };
}

export interface Session {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export async function openSession(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Session> {
  const context = await browser.newContext({ viewport, locale: 'en-US', userAgent: USER_AGENT });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.setDefaultTimeout(10_000);
  return { context, page, errors };
}

/**
 * Collects what the page's Content-Security-Policy blocks from the session's first navigation on:
 * its securitypolicyviolation events and the console's CSP errors.
 */
export async function watchCsp(session: Session): Promise<string[]> {
  const violations: string[] = [];
  await session.context.exposeBinding('reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await session.context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
        const where = `${event.sourceFile}:${event.lineNumber}`;
        report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${where})`);
      },
      true,
    );
  });
  session.page.on('console', (message) => {
    if (message.type() === 'error' && /content.security.policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Sends text from the open chat's composer and answers its bubble once the server took it. */
export async function sendFromComposer(page: Page, text: string): Promise<Locator> {
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('composer').press('Enter');
  const sent = page.locator('[data-testid=message]:not([data-status=sending])').filter({ hasText: text });
  await sent.waitFor();
  return sent;
}

export async function shot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

/** The newest code the outbox holds for the phone; waits for it to appear. */
export async function smsCodeFor(phone: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(path.join(DATA_DIR, 'sms-outbox.ndjson'), 'utf8').catch(() => '');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { phone: string; code: string });
    const last = lines.filter((line) => line.phone === phone).pop();
    if (last) return last.code;
    if (Date.now() > deadline) throw new Error(`no SMS code for ${phone} in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function register(page: Page, member: Member, screenshot?: string): Promise<void> {
  await page.goto(`${BASE_URL}/#/register`);
  await page.locator('input[name=phone]').fill(member.phone);
  await page.getByTestId('send-code').click();
  await page.getByTestId('send-code').filter({ hasText: /\d+s/ }).waitFor();
  await page.locator('input[name=smsCode]').fill(await smsCodeFor(member.phone));
  await page.locator('input[name=account]').fill(member.account);
  await page.locator('input[name=password]').fill(member.password);
  await page.locator('input[name=agreement]').check();
  if (screenshot) await shot(page, screenshot);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.waitForURL(/\/1\/\d+\/#\/$/);
  member.id = new URL(page.url()).pathname.split('/')[2];
  await page.getByTestId('me-name').waitFor();
}

/** Signs the member in through the login page; a member who just signed up on this page already is. */
export async function login(page: Page, member: Member, origin = BASE_URL): Promise<void> {
  if (member.id && page.url().startsWith(`${origin}/1/${member.id}/#/`)) {
    await page.getByTestId('me-name').waitFor();
    return;
  }
  if (!page.url().includes('#/login')) await page.goto(`${origin}/#/login`);
  await page.locator('input[name=account]').fill(member.account);
  await page.locator('input[name=password]').fill(member.password);
  await page.locator('input[name=agreement]').check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/1\/\d+\/#\/$/);
  member.id = new URL(page.url()).pathname.split('/')[2];
  await page.getByTestId('me-name').waitFor();
}

/** Polls until `check` holds; the failure names what was awaited. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A asks B to be friends by account and B accepts, both through the UI; both then list each other. */
export async function befriend(a: Page, b: Page, bob: Member, alice: Member): Promise<void> {
  await a.getByTestId('tab-contacts').click();
  await a.getByTestId('open-add-friend').click();
  await a.getByTestId('add-friend-keyword').fill(bob.account);
  await a.getByTestId('add-friend-search').click();
  await a.getByTestId('add-friend-result').getByText(`@${bob.account}`).waitFor();
  await a.getByTestId('send-friend-request').click();
  await a.getByTestId('request-sent').waitFor();
  await b.getByTestId('tab-contacts').click();
  await b.getByTestId('open-requests').click();
  const request = b.locator('[data-testid=request-item][data-direction=received][data-status=pending]');
  await request.getByTestId('request-accept').click();
  await b.locator(`[data-testid=friend-item][data-peer-id="${alice.id}"]`).waitFor();
  await a.locator(`[data-testid=friend-item][data-peer-id="${bob.id}"]`).waitFor();
}

/** Calls the REST API as the page's signed-in member, for set-up steps other specs cover in the UI. */
export function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const auth = JSON.parse(localStorage.getItem('eventchat.auth')!);
      const response = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${auth.token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = await response.json();
      if (envelope.code !== '200') throw new Error(`${method} ${path}: ${envelope.code} ${envelope.info}`);
      return envelope.data;
    },
    { method, path, body },
  ) as Promise<T>;
}

/** Opens the chat with a friend from the contacts tab. */
export async function openChat(page: Page, peerId: string): Promise<void> {
  await page.getByTestId('tab-contacts').click();
  await page.locator(`[data-testid=friend-item][data-peer-id="${peerId}"]`).click();
  await page.locator(`[data-testid=chat-view][data-peer-id="${peerId}"]`).waitFor();
}

/** Opens a group's conversation from the chats list. */
export async function openGroupChat(page: Page, groupId: string): Promise<void> {
  await page.getByTestId('tab-chats').click().catch(() => undefined);
  await page.locator(`[data-testid=session-item][data-peer-id="${groupId}"]`).click();
  await page.locator(`[data-testid=chat-view][data-peer-id="${groupId}"][data-chat-type=Group]`).waitFor();
}

export async function openSettings(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings').waitFor();
}

/** Picks the chat background in Settings. */
export async function setBackground(page: Page, background: string): Promise<void> {
  await openSettings(page);
  await page.getByTestId('background').selectOption(background);
}

/** The WCAG contrast ratio of two computed rgb() colours. */
export function contrast(foreground: string, background: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = colour.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Opens favourites (001), the group-send assistant (002), the notifications (003) or the chat assistant (004) from the list's menu. */
export async function openFixedEntry(page: Page, id: '001' | '002' | '003' | '004'): Promise<void> {
  await page.getByTestId('open-menu').click();
  await page.getByTestId('fixed-menu').locator(`[data-action=fixed-${id}]`).click();
}

/** Starts a replay from the admin page's Replays tab and returns its id as the server answered it. */
export async function startedReplay(page: Page): Promise<string> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/admin/audit/replays'),
    page.getByRole('button', { name: 'Replay', exact: true }).click(),
  ]);
  const id = ((await response.json()) as { data?: { id?: string } }).data?.id;
  if (!id) throw new Error(`no replay started: ${response.status()}`);
  return id;
}
