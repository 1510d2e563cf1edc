import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { BASE_URL, launchBrowser, login, missingEnv, newMember, openSession, type Session } from './harness';
import { befriendOverApi, call, operatorToken, registerOverApi, type Account } from './rest';

const homeChunk = /\/assets\/PaneRoutes-[A-Z0-9]+\.js$/;
const adminChunk = /\/assets\/AdminApp-[A-Z0-9]+\.js$/;
const callChunk = /\/assets\/CallOverlay-[A-Z0-9]+\.js$/;

const loaded = (requested: string[], chunk: RegExp) => requested.filter((url) => chunk.test(url));

/** The bytes the server sends for url when the client accepts only encoding, as they come. */
function bytesSent(url: string, encoding: 'identity' | 'gzip' | 'br'): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (response) => {
      const sent = response.headers['content-encoding'] ?? 'identity';
      if (sent !== encoding) reject(new Error(`${url}: asked for ${encoding}, sent ${sent}`));
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('the split, compressed bundle', { skip: missingEnv || false, timeout: 60_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;
  let bob: Account;

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    [alice, bob] = await Promise.all([registerOverApi(newMember('bundles')), registerOverApi(newMember('bundlec'))]);
    await befriendOverApi(bob, alice);
  });

  after(async () => {
    assert.deepEqual(a?.errors ?? [], []);
    await browser?.close();
  });

  it('loads the login page without the home, admin or call chunks, compressed and cached; the home after signing in, the call screens when a call rings', async () => {
    const requested: string[] = [];
    a.page.on('request', (request) => requested.push(request.url()));

    const page = await a.page.goto(`${BASE_URL}/#/login`);
    assert.equal(page?.headers()['content-encoding'], 'br');
    assert.equal(page?.headers()['cache-control'], 'no-cache');
    await a.page.locator('input[name=account]').waitFor();
    const app = requested.find((url) => /\/assets\/app-[A-Z0-9]+\.js$/.test(url));
    assert.ok(app, `the app's script among ${requested.join(', ')}`);
    const script = await a.page.request.get(app, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(script.headers()['content-encoding'], 'gzip');
    assert.equal(script.headers()['vary'], 'Accept-Encoding');
    assert.equal(script.headers()['cache-control'], 'public, max-age=31536000, immutable');
    for (const [chunk, what] of [
      [homeChunk, 'home'],
      [adminChunk, 'admin'],
      [callChunk, 'call overlay'],
    ] as const) {
      assert.deepEqual(loaded(requested, chunk), [], `the login page loads no ${what} chunk`);
    }
    // Its scripts as they travel, measured to keep the sign-in page light.
    await a.page.waitForLoadState('networkidle');
    const scripts = requested.filter((url) => url.endsWith('.js'));
    const total = async (encoding: 'identity' | 'gzip' | 'br') =>
      (await Promise.all(scripts.map((url) => bytesSent(url, encoding)))).reduce((sum, size) => sum + size, 0);
    const [raw, gzip, br] = [await total('identity'), await total('gzip'), await total('br')];
    console.log(`the login page's scripts: ${scripts.length} files, ${raw} bytes raw, ${gzip} gzip, ${br} brotli`);
    assert.ok(br > 0 && br < gzip && gzip < raw, `brotli ${br} < gzip ${gzip} < raw ${raw}`);
    assert.ok(br < 100_000, `the login page's scripts take ${br} bytes brotli`);
    const beforeLogin = requested.length;

    await login(a.page, alice);
    assert.equal(loaded(requested.slice(beforeLogin), homeChunk).length, 1, 'the home chunk is loaded on signing in');
    await a.page.getByTestId('open-settings').click();
    await a.page.getByTestId('settings').waitFor();
    assert.deepEqual(loaded(requested, callChunk), [], 'no call screens before a call');
    assert.deepEqual(loaded(requested, adminChunk), [], 'no admin page in the members’ app');

    await call('POST', '/v1/message/call/start', bob.token, {
      uuid: `e2e-bundle-${Date.now()}`,
      chatType: 'Friend',
      to: alice.id,
      media: 'voice',
    });
    const ringing = a.page.getByTestId('call-incoming');
    await ringing.getByText('Incoming voice call').waitFor();
    assert.equal(loaded(requested, callChunk).length, 1, 'the call screens are loaded when the call rings');
    await ringing.getByTestId('call-reject').click();
    await ringing.waitFor({ state: 'detached' });
  });

  it('loads the admin page with its own chunk, without the members’ home or call screens', async () => {
    const session = await openSession(browser, { width: 375, height: 740 });
    const requested: string[] = [];
    session.page.on('request', (request) => requested.push(request.url()));
    await session.page.goto(`${BASE_URL}/admin/`);
    await session.page.locator('textarea[name=token]').fill(await operatorToken());
    await session.page.getByRole('button', { name: 'Sign in' }).click();
    await session.page.locator('[data-projector="chats.v4"]').waitFor();
    assert.equal(loaded(requested, adminChunk).length, 1, 'the admin chunk');
    assert.deepEqual(loaded(requested, homeChunk), [], 'no home chunk on the admin page');
    assert.deepEqual(loaded(requested, callChunk), [], 'no call screens on the admin page');
    assert.deepEqual(session.errors, []);
    await session.context.close();
  });
});
