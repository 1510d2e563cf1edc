import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiError, request } from '../src/api/http';
import { en } from '../src/i18n/en';
import { appStore } from '../src/state/store';
import { toastsAtom } from '../src/state/toast';

// A real HTTP server on 127.0.0.1 answering each path with a fixed status and body.
const answers: Record<string, [number, string]> = {
  '/refused': [200, JSON.stringify({ code: '60014', info: 'The service is busy, try later', data: null })],
  '/broken': [502, '<html>bad gateway</html>'],
};

let server: Server;
let base = '';

before(async () => {
  server = createServer((req, res) => {
    const [status, body] = answers[req.url ?? ''] ?? [404, ''];
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function refusal(path: string): Promise<ApiError> {
  try {
    await request('GET', base + path, { token: 'tok' });
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error;
  }
  assert.fail('the call succeeded');
}

function errorToasts(): string[] {
  return appStore
    .get(toastsAtom)
    .filter((toast) => toast.kind === 'error')
    .map((toast) => toast.text);
}

describe('the fetch layer', () => {
  it('shows the info of a code other than 200, such as 60014, as an error', async () => {
    const error = await refusal('/refused');
    assert.equal(error.code, '60014');
    assert.equal(error.message, 'The service is busy, try later');
    assert.ok(errorToasts().includes('The service is busy, try later'));
  });

  it('shows the request-failed text when the answer is not an envelope', async () => {
    const error = await refusal('/broken');
    assert.equal(error.status, 502);
    assert.equal(error.message, en['common.requestFailed']);
    assert.equal(error.message, 'Request failed, please try again later');
    assert.ok(errorToasts().includes('Request failed, please try again later'));
  });
});
