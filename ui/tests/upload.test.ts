import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FILE_PATH_PREFIX,
  MAX_PICTURE_BYTES,
  UPLOAD_PATH,
  UPLOAD_TIMEOUT_MS,
  UploadError,
  formatSize,
  mediaContent,
  mediaUrl,
  messageTypeFor,
  parseMediaContent,
  percent,
  precheck,
  uploadFile,
  type UploadOptions,
  type UploadXhr,
} from '../src/chat/upload';
import { en } from '../src/i18n/en';

const STORED = `${FILE_PATH_PREFIX}x0001/0123456789abcdef0123456789abcdef.png`;
const uploaded = { filePath: STORED, fileName: 'cat.png', size: 1234, contentType: 'image/png' };

/** Records what the upload asked and lets the test answer. */
class FakeXhr implements UploadXhr {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  aborted = false;
  timeout = 0;
  status = 0;
  responseText = '';
  upload: UploadXhr['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.();
  }
}

function start(extra: Partial<UploadOptions> = {}) {
  const xhr = new FakeXhr();
  const progress: number[][] = [];
  const result = uploadFile(new Blob(['x']), 'cat.png', {
    token: 'tok',
    language: 'en',
    texts: {
      timeout: en['upload.timeout'],
      cancelled: en['upload.cancelled'],
      network: en['upload.network'],
      failed: en['upload.failed'],
    },
    onProgress: (loaded, total) => progress.push([loaded, total]),
    createXhr: () => xhr,
    createForm: (_file, name) => ({ file: name }),
    ...extra,
  });
  return { xhr, progress, result };
}

async function failure(promise: Promise<unknown>): Promise<UploadError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UploadError);
    return error;
  }
  assert.fail('the upload succeeded');
}

describe('uploading a file', () => {
  it('posts the form with the token and the 300 s timeout, reports progress, resolves with the file', async () => {
    const { xhr, progress, result } = start();
    assert.equal(xhr.method, 'POST');
    assert.equal(xhr.url, UPLOAD_PATH);
    assert.equal(xhr.headers.Authorization, 'Bearer tok');
    assert.equal(xhr.timeout, UPLOAD_TIMEOUT_MS);
    assert.equal(UPLOAD_TIMEOUT_MS, 300_000);
    assert.deepEqual(xhr.body, { file: 'cat.png' });
    xhr.upload.onprogress?.({ loaded: 50, total: 200, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 0, total: 0, lengthComputable: false });
    xhr.answer(200, { code: '200', msg: 'success', info: 'success', data: uploaded });
    assert.deepEqual(await result, uploaded);
    assert.deepEqual(progress, [[50, 200]]);
  });

  it('asks for an avatar upload with its type', () => {
    const { xhr } = start({ type: 'avatar' });
    assert.equal(xhr.url, `${UPLOAD_PATH}?type=avatar`);
  });

  it('tells a time-out, a cancel, a network failure and a refusal apart', async () => {
    const timedOut = start();
    timedOut.xhr.ontimeout?.();
    const t = await failure(timedOut.result);
    assert.equal(t.reason, 'timeout');
    assert.equal(t.message, 'Upload timed out');

    const controller = new AbortController();
    const cancelled = start({ signal: controller.signal });
    controller.abort();
    const c = await failure(cancelled.result);
    assert.equal(cancelled.xhr.aborted, true);
    assert.equal(c.reason, 'cancelled');
    assert.equal(c.message, 'Upload canceled');

    const offline = start();
    offline.xhr.onerror?.();
    const o = await failure(offline.result);
    assert.equal(o.reason, 'network');
    assert.equal(o.message, 'Poor network, try a better one');

    const refused = start();
    refused.xhr.answer(413, { code: '413', info: 'A picture must be under 5MB', data: null });
    const r = await failure(refused.result);
    assert.equal(r.reason, 'refused');
    assert.equal(r.status, 413);
    assert.equal(r.message, 'A picture must be under 5MB');

    const garbled = start();
    garbled.xhr.answer(502, '<html>bad gateway</html>');
    assert.equal((await failure(garbled.result)).message, 'The file cannot be uploaded');

    const expired = start();
    expired.xhr.answer(401, { code: '401', info: 'login expired, please log in again', data: null });
    assert.equal((await failure(expired.result)).reason, 'unauthorized');
  });

  it('does not start when already cancelled, and refuses an answer naming a file elsewhere', async () => {
    const controller = new AbortController();
    controller.abort();
    const early = start({ signal: controller.signal });
    assert.equal((await failure(early.result)).reason, 'cancelled');
    assert.equal(early.xhr.body, undefined);

    const odd = start();
    odd.xhr.answer(200, { code: '200', info: 'success', data: { ...uploaded, filePath: 'https://elsewhere/x.png' } });
    assert.equal((await failure(odd.result)).reason, 'refused');
  });
});

describe('media content', () => {
  it('refuses before uploading what the server would refuse', () => {
    assert.equal(precheck({ size: 0, type: 'text/plain' }), 'upload.empty');
    assert.equal(precheck({ size: MAX_PICTURE_BYTES + 1, type: 'image/png' }), 'upload.pictureTooLarge');
    assert.equal(precheck({ size: MAX_PICTURE_BYTES, type: 'image/png' }), null);
    assert.equal(precheck({ size: MAX_PICTURE_BYTES + 1, type: 'application/pdf' }), null);
    assert.equal(precheck({ size: 100 * 1024 * 1024 + 1, type: 'video/mp4' }), 'upload.fileTooLarge');
  });

  it('picks the message type from the sniffed content type and the button used', () => {
    assert.equal(messageTypeFor('image/png', 'media'), 'Picture');
    assert.equal(messageTypeFor('video/mp4', 'media'), 'VideoMsg');
    assert.equal(messageTypeFor('application/pdf', 'media'), 'File');
    assert.equal(messageTypeFor('image/png', 'file'), 'File');
    assert.equal(messageTypeFor('audio/mpeg', 'voice'), 'VoiceMsg');
    assert.equal(messageTypeFor('video/webm', 'voice'), 'VoiceMsg');
    assert.equal(messageTypeFor('application/zip', 'voice'), 'File');
  });

  it('writes and reads the JSON content, keeping only sane measures', () => {
    const text = mediaContent(uploaded, { width: 640.4, height: 480, duration: Number.NaN });
    assert.deepEqual(JSON.parse(text), { ...uploaded, width: 640, height: 480 });
    assert.deepEqual(parseMediaContent(text), { ...uploaded, width: 640, height: 480, duration: undefined });
    assert.equal(parseMediaContent('hello'), null);
    assert.equal(parseMediaContent('{"filePath":"/etc/passwd","fileName":"x","size":1,"contentType":"a"}'), null);
    assert.equal(parseMediaContent(JSON.stringify({ ...uploaded, size: '1' })), null);
  });

  it('builds media URLs only for this server\'s stored files, with the token', () => {
    assert.equal(mediaUrl(STORED, 'a b'), `${STORED}?token=a%20b`);
    assert.equal(mediaUrl(`${FILE_PATH_PREFIX}x0001/../../secret`, 't'), null);
    assert.equal(mediaUrl('javascript:alert(1)', 't'), null);
  });

  it('formats sizes and progress', () => {
    assert.equal(formatSize(999), '999 B');
    assert.equal(formatSize(1536), '1.5 KB');
    assert.equal(formatSize(12 * 1024 * 1024), '12 MB');
    assert.equal(percent(1, 3), 33);
    assert.equal(percent(5, 0), 0);
    assert.equal(percent(7, 5), 100);
  });
});
