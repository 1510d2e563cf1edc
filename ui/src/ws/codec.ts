// Websocket frame codec: a frame is base64(nonce[12] || AES-256-GCM ciphertext+tag) of UTF-8 JSON,
// under the 32-byte key base64-decoded from the login's wsKey. WebCrypto does the work where the
// page has it; a page served over plain http on a non-localhost host has no crypto.subtle, and
// @noble/ciphers takes over there.
import { gcm } from '@noble/ciphers/aes.js';
import { base64ToBytes, bytesToBase64 } from './base64';

export const NONCE_BYTES = 12;
const KEY_BYTES = 32;

export interface FrameCipher {
  /** `nonce` is for tests only; frames always get a fresh random nonce. */
  encrypt(plaintext: string, nonce?: Uint8Array): Promise<string>;
  /** Rejects when the frame is not base64, too short, or fails authentication. */
  decrypt(frame: string): Promise<string>;
  readonly engine: 'webcrypto' | 'noble';
}

export type Engine = 'auto' | 'webcrypto' | 'noble';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export async function createFrameCipher(wsKey: string, engine: Engine = 'auto'): Promise<FrameCipher> {
  const key = base64ToBytes(wsKey);
  if (key.length !== KEY_BYTES) throw new Error(`websocket key must be ${KEY_BYTES} bytes, got ${key.length}`);
  const subtle = globalThis.crypto?.subtle;
  if (engine === 'webcrypto' || (engine === 'auto' && subtle)) {
    if (!subtle) throw new Error('WebCrypto is not available in this context');
    return webCryptoCipher(subtle, key);
  }
  return nobleCipher(key);
}

function freshNonce(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
}

function join(nonce: Uint8Array, sealed: Uint8Array): string {
  const frame = new Uint8Array(nonce.length + sealed.length);
  frame.set(nonce, 0);
  frame.set(sealed, nonce.length);
  return bytesToBase64(frame);
}

function split(frame: string): { nonce: Uint8Array; sealed: Uint8Array } {
  const bytes = base64ToBytes(frame);
  if (bytes.length < NONCE_BYTES + 16) throw new Error('frame too short');
  return { nonce: bytes.subarray(0, NONCE_BYTES), sealed: bytes.subarray(NONCE_BYTES) };
}

async function webCryptoCipher(subtle: SubtleCrypto, raw: Uint8Array): Promise<FrameCipher> {
  const key = await subtle.importKey('raw', raw as BufferSource, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
  return {
    engine: 'webcrypto',
    async encrypt(plaintext, nonce = freshNonce()) {
      const sealed = await subtle.encrypt(
        { name: 'AES-GCM', iv: nonce as BufferSource },
        key,
        encoder.encode(plaintext),
      );
      return join(nonce, new Uint8Array(sealed));
    },
    async decrypt(frame) {
      const { nonce, sealed } = split(frame);
      const plain = await subtle.decrypt({ name: 'AES-GCM', iv: nonce as BufferSource }, key, sealed as BufferSource);
      return decoder.decode(plain);
    },
  };
}

function nobleCipher(key: Uint8Array): FrameCipher {
  return {
    engine: 'noble',
    async encrypt(plaintext, nonce = freshNonce()) {
      return join(nonce, gcm(key, nonce).encrypt(encoder.encode(plaintext)));
    },
    async decrypt(frame) {
      const { nonce, sealed } = split(frame);
      return decoder.decode(gcm(key, nonce).decrypt(sealed));
    },
  };
}
