import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Locator, Route } from 'playwright-core';
import {
  befriend,
  launchBrowser,
  login,
  missingEnv,
  newMember,
  openSession,
  register,
  shot,
  waitUntil,
  watchCsp,
  type Session,
} from './harness';

/** A w x h PNG of colour stripes, encoded here so that the test needs no fixture file. */
function png(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < h; y++) {
    rows.push(0);
    for (let x = 0; x < w; x++) rows.push((x * 37) % 256, (y * 53) % 256, 180);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const naturalWidth = (img: Locator) => img.evaluate((element) => (element as HTMLImageElement).naturalWidth);

const suite = 'a member sends a picture and a file, the friend sees them';

describe(suite, { skip: missingEnv || false, timeout: 90_000 }, () => {
  let browser: Browser;
  let a: Session;
  let b: Session;
  let blocked: string[][];
  const alice = newMember('alicem');
  const bob = newMember('bobm');

  before(async () => {
    browser = await launchBrowser();
    a = await openSession(browser);
    b = await openSession(browser);
    blocked = await Promise.all([watchCsp(a), watchCsp(b)]);
    await Promise.all([register(a.page, alice), register(b.page, bob)]);
    await Promise.all([login(a.page, alice), login(b.page, bob)]);
    await befriend(a.page, b.page, bob, alice);
    await a.page.locator(`[data-testid=friend-item][data-peer-id="${bob.id}"]`).click();
    await a.page.getByTestId('chat-view').waitFor();
  });

  after(async () => {
    await browser?.close();
  });

  it('uploads a picture from the attach button and shows it to both members', async () => {
    await a.page
      .getByTestId('attach-media-input')
      .setInputFiles({ name: 'stripes.png', mimeType: 'image/png', buffer: png(64, 48) });
    const own = a.page.locator('[data-testid=message]').filter({ has: a.page.getByTestId('media-picture') });
    await own.waitFor();
    await waitUntil('the picture message to be sent', async () =>
      ['sent', 'Unread', 'Read'].includes((await own.getAttribute('data-status')) ?? ''),
    );
    await waitUntil('the picture to load for the sender', async () => (await naturalWidth(own.locator('img'))) > 0);

    await b.page.getByTestId('tab-chats').click();
    await b.page.locator(`[data-testid=session-item][data-peer-id="${alice.id}"]`).click();
    const received = b.page.getByTestId('media-picture').locator('img');
    await received.waitFor();
    await waitUntil('the picture to load for the friend', async () => (await naturalWidth(received)) > 0);
    assert.equal(await naturalWidth(received), 64);
    const src = (await received.getAttribute('src')) ?? '';
    assert.match(src, /^\/v1\/sso\/im\/file\/x0001\/[0-9a-f]{32}\.png\?token=/);
    await shot(b.page, '20-picture-received');

    await b.page.getByTestId('media-picture').click();
    const large = b.page.getByTestId('lightbox').locator('img');
    await large.waitFor();
    assert.equal(await naturalWidth(large), 64);
    // A dark backdrop; zoom in and out; a download of the same file; a click on the picture keeps
    // the viewer, a click outside closes it.
    const lightbox = b.page.getByTestId('lightbox');
    const backdrop = await lightbox.evaluate((element) => getComputedStyle(element).backgroundColor);
    const [red, green, blue, alpha] = backdrop.match(/[\d.]+/g)!.map(Number);
    assert.ok(Math.max(red!, green!, blue!) < 40 && (alpha ?? 1) >= 0.8, `backdrop ${backdrop}`);
    const width = () => large.evaluate((element) => Math.round(element.getBoundingClientRect().width));
    assert.equal(await width(), 64);
    await b.page.getByTestId('lightbox-zoom-in').click();
    await b.page.getByTestId('lightbox-zoom-in').click();
    await b.page.getByTestId('lightbox-zoom').filter({ hasText: '200%' }).waitFor();
    assert.equal(await width(), 128);
    await b.page.getByTestId('lightbox-zoom-out').click();
    await b.page.getByTestId('lightbox-zoom').filter({ hasText: '150%' }).waitFor();
    assert.equal(await width(), 96);
    const download = b.page.getByTestId('lightbox-download');
    assert.equal(await download.getAttribute('href'), src);
    assert.ok(await download.getAttribute('download'), 'the link downloads rather than navigates');
    const fetched = await b.page.evaluate(async (href) => (await fetch(href)).status, src);
    assert.equal(fetched, 200);
    await large.click();
    assert.equal(await lightbox.count(), 1, 'a click on the picture keeps the viewer open');
    await b.page.mouse.click(8, 8);
    await lightbox.waitFor({ state: 'detached' });

    // At 375 px the tools sit inside the screen; Esc closes.
    await b.page.setViewportSize({ width: 375, height: 740 });
    await b.page.getByTestId('media-picture').click();
    const tools = await b.page.locator('.lightbox-tools').boundingBox();
    assert.ok(tools && tools.x >= 0 && tools.x + tools.width <= 375, `tools at ${JSON.stringify(tools)}`);
    await shot(b.page, '20-picture-viewer-375');
    await b.page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await b.page.setViewportSize({ width: 1280, height: 800 });
  });

  it('sends a file that the friend can download', async () => {
    const text = 'quarterly numbers\n';
    await a.page
      .getByTestId('attach-file-input')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    const link = b.page.getByTestId('media-file').filter({ hasText: 'notes.txt' });
    await link.waitFor();
    const href = (await link.getAttribute('href')) ?? '';
    const fetched = await b.page.evaluate(async (url) => {
      const response = await fetch(url);
      const disposition = response.headers.get('content-disposition');
      return { status: response.status, body: await response.text(), disposition };
    }, href);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body, text);
    assert.match(fetched.disposition ?? '', /^attachment/);
    await shot(b.page, '21-file-received');
  });

  it('cancels an upload under way and says so', async () => {
    const slow = (route: Route) => setTimeout(() => void route.continue().catch(() => null), 4000);
    await a.page.route('**/v1/sso/im/upload/v1*', slow);
    await a.page
      .getByTestId('attach-media-input')
      .setInputFiles({ name: 'slow.png', mimeType: 'image/png', buffer: png(8, 8) });
    await a.page.locator('[data-testid=upload-status][data-phase=uploading]').waitFor();
    await shot(a.page, '22-uploading');
    await a.page.getByTestId('upload-cancel').click();
    await a.page.getByText('Upload canceled').waitFor();
    await a.page.getByTestId('upload-status').waitFor({ state: 'detached' });
    await a.page.unroute('**/v1/sso/im/upload/v1*');
    assert.equal(await a.page.getByTestId('media-picture').count(), 1);
  });

  it('met the Content-Security-Policy with previews, pictures, video and audio: nothing blocked', () => {
    assert.deepEqual(blocked, [[], []]);
  });
});
