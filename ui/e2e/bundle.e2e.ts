import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { BASE_URL, launchBrowser, login, missingEnv, newMember, openSession, type Session } from './harness';
import { registerOverApi, type Account } from './rest';

const homeChunk = /\/assets\/PaneRoutes-[A-Z0-9]+\.js$/;

describe('the split, compressed bundle', { skip: missingEnv || false, timeout: 60_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    alice = await registerOverApi(newMember('bundles'));
  });

  after(async () => {
    assert.deepEqual(a?.errors ?? [], []);
    await browser?.close();
  });

  it('loads the login page without the home chunk, compressed and cached, and the home after signing in', async () => {
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
    assert.deepEqual(
      requested.filter((url) => homeChunk.test(url)),
      [],
      'the login page loads no home chunk',
    );
    const beforeLogin = requested.length;

    await login(a.page, alice);
    const chunk = requested.slice(beforeLogin).find((url) => homeChunk.test(url));
    assert.ok(chunk, 'the home chunk is loaded on signing in');
    await a.page.getByTestId('open-settings').click();
    await a.page.getByTestId('settings').waitFor();
  });
});
