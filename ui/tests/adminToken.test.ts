import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAdminToken } from '../src/admin/token';

function token(prefix: string, payload: string): string {
  return `${prefix}${Buffer.from(payload).toString('base64url')}.c2lnbmF0dXJl`;
}

describe('admin page tokens', () => {
  it('reads an operator token: name and end', () => {
    assert.deepEqual(parseAdminToken(` ${token('op.', 'ops|1800000000000')} `), {
      token: token('op.', 'ops|1800000000000'),
      role: 'operator',
      name: 'ops',
      tenant: '',
      until: 1800000000000,
    });
  });

  it('reads an auditor token: name, tenant and end', () => {
    const credential = parseAdminToken(token('au.', 'alice|x0001|1800000000000'));
    assert.equal(credential?.role, 'auditor');
    assert.equal(credential?.name, 'alice');
    assert.equal(credential?.tenant, 'x0001');
    assert.equal(credential?.until, 1800000000000);
  });

  it('refuses member tokens, garbage and payloads of the wrong shape', () => {
    for (const raw of [
      'eyJhbGciOi.member.token',
      '',
      'op.',
      'op.!!!.x',
      token('op.', 'ops|x0001|1800000000000'),
      token('op.', 'ops|soon'),
      token('au.', 'alice|1800000000000'),
      token('au.', 'alice||1800000000000'),
    ]) {
      assert.equal(parseAdminToken(raw), null, raw);
    }
  });
});
