import { randomBytes } from 'node:crypto';
import { aeadOpen, aeadSeal, KEY_BYTES } from './aead';

const key = randomBytes(KEY_BYTES);
const aad = Buffer.from('instance-1.20260304.0a1b2c3d|message');
const plaintext = '["5511999999999@c.us","Olá ✓"]';

/** The sealed bytes of a base64url value, and back. */
const bytes = (sealed: string) => Buffer.from(sealed, 'base64url');
const text = (sealed: Buffer) => sealed.toString('base64url');

describe('aeadSeal and aeadOpen (XChaCha20-Poly1305)', () => {
  it('opens what it sealed, and seals the same plaintext differently every time', () => {
    const sealed = aeadSeal(key, aad, plaintext);
    expect(bytes(sealed).length).toBe(24 + Buffer.byteLength(plaintext) + 16);
    expect(bytes(sealed).includes(Buffer.from(plaintext))).toBe(false);
    expect(aeadOpen(key, aad, sealed)).toBe(plaintext);
    expect(aeadSeal(key, aad, plaintext)).not.toBe(sealed);
  });

  it('opens the value from where it starts in a longer string', () => {
    const sealed = aeadSeal(key, aad, plaintext);
    expect(aeadOpen(key, aad, `pd2.20260304.0a1b2c3d.${sealed}`, 22)).toBe(plaintext);
  });

  it('opens nothing altered, truncated, under another key or with another aad', () => {
    const sealed = bytes(aeadSeal(key, aad, plaintext));
    for (const at of [0, 23, 24, sealed.length - 17, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[at] ^= 0x01;
      expect(aeadOpen(key, aad, text(altered))).toBeUndefined();
    }
    expect(aeadOpen(key, aad, text(sealed.subarray(0, sealed.length - 1)))).toBeUndefined();
    expect(aeadOpen(key, aad, text(sealed.subarray(0, 39)))).toBeUndefined();
    expect(aeadOpen(key, aad, '')).toBeUndefined();
    expect(aeadOpen(randomBytes(KEY_BYTES), aad, text(sealed))).toBeUndefined();
    expect(aeadOpen(key, Buffer.from('instance-1.20260304.0a1b2c3d|ack'), text(sealed))).toBeUndefined();
  });

  it('seals an empty plaintext too, and values larger than the buffers it starts with', () => {
    expect(aeadOpen(key, aad, aeadSeal(key, aad, ''))).toBe('');
    const large = JSON.stringify('é'.repeat(30_000));
    expect(aeadOpen(key, aad, aeadSeal(key, aad, large))).toBe(large);
    // And a small one again after the buffers grew.
    expect(aeadOpen(key, aad, aeadSeal(key, aad, plaintext))).toBe(plaintext);
  });
});
