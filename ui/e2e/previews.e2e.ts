import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deflateSync, crc32 } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, missingEnv, newMember, openChat, openSession, shot, waitUntil, type Session } from './harness';
import { befriendOverApi, call, registerOverApi, type Account } from './rest';

/** A 2 x 2 grey PNG, encoded here so that the test needs no fixture file. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 128, 128, 0, 128, 128]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const preview = (page: Page, peerId: string) =>
  page.locator(`[data-testid=session-item][data-peer-id="${peerId}"]`).getByTestId('session-preview');

/** Waits until the list's preview of the conversation with peerId reads text, and answers it. */
async function previewReads(page: Page, peerId: string, text: string): Promise<void> {
  await page.getByTestId('tab-chats').click();
  await waitUntil(`the preview "${text}"`, async () => (await preview(page, peerId).textContent())?.trim() === text);
}

describe('the conversation list reads previews as people read them, after a reload as live', { skip: missingEnv || undefined, timeout: 120_000 }, () => {
  let browser: Browser;
  let a: Session;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let dave: Account;
  let erin: Account;
  let bobName: string;

  before(async () => {
    [alice, bob, carol, dave, erin] = await Promise.all(
      ['alicepv', 'bobpv', 'carolpv', 'davepv', 'erinpv'].map((tag) => registerOverApi(newMember(tag))),
    );
    await Promise.all([bob, carol, dave, erin].map((friend) => befriendOverApi(alice, friend)));
    bobName = (await call<{ name: string }>('GET', '/v1/member/memberInfo/getMemberByToken', bob.token)).name;
    assert.ok(bobName, 'bob has a name');
    browser = await launchBrowser();
    a = await openSession(browser);
    await login(a.page, alice);
  });

  after(async () => {
    await browser?.close();
  });

  it('shows a photo, a file by its name, a forward by its original sender and who recalled a message live', async () => {
    const page = a.page;
    await openChat(page, erin.id!);
    await page.getByTestId('attach-media-input').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: png() });
    await previewReads(page, erin.id!, 'Photo');

    await openChat(page, carol.id!);
    await page
      .getByTestId('attach-file-input')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n') });
    await previewReads(page, carol.id!, 'File: report.pdf');

    const look = await call<{ id: string }>('POST', '/v1/message/send', bob.token, {
      uuid: `pv-${Date.now()}`,
      chatType: 'Friend',
      to: alice.id,
      msgType: 'Text',
      content: 'look at this',
    });
    await call('POST', '/v1/message/forward', alice.token, {
      uuid: `pv-fw-${Date.now()}`,
      messageIds: [look.id],
      targets: [{ chatType: 'Friend', to: dave.id }],
    });
    await previewReads(page, dave.id!, `Forwarded from ${bobName}: look at this`);

    await call('PUT', '/v1/message/recall', bob.token, { id: look.id });
    await previewReads(page, bob.id!, `${bobName} recalled a message`);
  });

  it('reads them the same after a reload, in English and in Vietnamese', async () => {
    const page = a.page;
    await page.reload();
    await previewReads(page, erin.id!, 'Photo');
    await previewReads(page, carol.id!, 'File: report.pdf');
    await previewReads(page, dave.id!, `Forwarded from ${bobName}: look at this`);
    await previewReads(page, bob.id!, `${bobName} recalled a message`);
    await shot(page, 'previews-en');

    await page.evaluate(() => localStorage.setItem('eventchat.language', JSON.stringify('vi_VN')));
    await page.reload();
    await previewReads(page, erin.id!, 'Ảnh');
    await previewReads(page, carol.id!, 'Tệp: report.pdf');
    await previewReads(page, dave.id!, `Chuyển tiếp từ ${bobName}: look at this`);
    await previewReads(page, bob.id!, `${bobName} đã thu hồi một tin nhắn`);
    await shot(page, 'previews-vi');
    assert.deepEqual(a.errors, []);
  });
});
