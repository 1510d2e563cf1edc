import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFrameCipher, type Engine } from '../src/ws/codec';

// The fixed vector the Go gateway checks too (adapters/ws): AES-256-GCM, frame = base64(nonce || ciphertext+tag).
const VECTOR = {
  wsKey: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', // bytes 0x00..0x1f
  nonceHex: '101112131415161718191a1b',
  plaintext: '{"cmd":13}',
  frame: 'EBESExQVFhcYGRobBtz7ey3rAIL5CHPiVAyOSxyqv/Hj0uV4jkw=',
};

const UNICODE_VECTOR = {
  plaintext: '{"cmd":11,"data":{"content":"héllo 你好"}}',
  frame: 'EBESExQVFhcYGRobBtz7ey3rAIL7WSp5bg0Ice0rbG10rCPUiY3AXXw8l3I8hTgjERvOCtuLsCz38zxYhmFFrSA/ohFQYFBCHg==',
};

function nonce(): Uint8Array {
  return Uint8Array.from(VECTOR.nonceHex.match(/../g)!.map((byte) => parseInt(byte, 16)));
}

for (const engine of ['webcrypto', 'noble'] as Engine[]) {
  describe(`frame codec (${engine})`, () => {
    it('encrypts the fixed vector to the expected frame', async () => {
      const cipher = await createFrameCipher(VECTOR.wsKey, engine);
      assert.equal(cipher.engine, engine);
      assert.equal(await cipher.encrypt(VECTOR.plaintext, nonce()), VECTOR.frame);
      assert.equal(await cipher.encrypt(UNICODE_VECTOR.plaintext, nonce()), UNICODE_VECTOR.frame);
    });

    it('decrypts the fixed vector', async () => {
      const cipher = await createFrameCipher(VECTOR.wsKey, engine);
      assert.equal(await cipher.decrypt(VECTOR.frame), VECTOR.plaintext);
      assert.equal(await cipher.decrypt(UNICODE_VECTOR.frame), UNICODE_VECTOR.plaintext);
    });

    it('round-trips with a fresh random nonce each time', async () => {
      const cipher = await createFrameCipher(VECTOR.wsKey, engine);
      const body = JSON.stringify({ cmd: 27, data: { messageId: '1866000000000000001' } });
      const first = await cipher.encrypt(body);
      const second = await cipher.encrypt(body);
      assert.notEqual(first, second);
      assert.equal(await cipher.decrypt(first), body);
      assert.equal(await cipher.decrypt(second), body);
    });

    it('rejects a tampered, truncated or non-base64 frame', async () => {
      const cipher = await createFrameCipher(VECTOR.wsKey, engine);
      const bytes = Buffer.from(VECTOR.frame, 'base64');
      bytes[bytes.length - 1] ^= 1;
      await assert.rejects(cipher.decrypt(bytes.toString('base64')));
      await assert.rejects(cipher.decrypt(VECTOR.frame.slice(0, 20)));
      await assert.rejects(cipher.decrypt('not base64 at all!'));
    });
  });
}

describe('frame codec engines', () => {
  it('read each other’s frames', async () => {
    const web = await createFrameCipher(VECTOR.wsKey, 'webcrypto');
    const noble = await createFrameCipher(VECTOR.wsKey, 'noble');
    assert.equal(await noble.decrypt(await web.encrypt('{"cmd":13}')), '{"cmd":13}');
    assert.equal(await web.decrypt(await noble.encrypt('{"cmd":13}')), '{"cmd":13}');
  });

  it('refuses a key that is not 32 bytes', async () => {
    await assert.rejects(createFrameCipher(Buffer.alloc(16).toString('base64')));
  });
});
