import { randomBytes } from 'node:crypto';
import { aeadOpen, aeadSeal, KEY_BYTES } from './aead';

const key = randomBytes(KEY_BYTES);
const aad = Buffer.from('instance-1.20260304.0a1b2c3d');
const plaintext = Buffer.from('["5511999999999@c.us","Olá ✓"]', 'utf8');

describe('aeadSeal and aeadOpen (XChaCha20-Poly1305)', () => {
  it('opens what it sealed, and seals the same plaintext differently every time', () => {
    const sealed = aeadSeal(key, aad, plaintext);
    expect(sealed.length).toBe(24 + plaintext.length + 16);
    expect(sealed.includes(plaintext)).toBe(false);
    expect(aeadOpen(key, aad, sealed)?.toString('utf8')).toBe(plaintext.toString('utf8'));
    expect(aeadSeal(key, aad, plaintext).equals(sealed)).toBe(false);
  });

  it('opens nothing altered, truncated, under another key or with another aad', () => {
    const sealed = aeadSeal(key, aad, plaintext);
    for (const at of [0, 23, 24, sealed.length - 17, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[at] ^= 0x01;
      expect(aeadOpen(key, aad, altered)).toBeUndefined();
    }
    expect(aeadOpen(key, aad, sealed.subarray(0, sealed.length - 1))).toBeUndefined();
    expect(aeadOpen(key, aad, sealed.subarray(0, 39))).toBeUndefined();
    expect(aeadOpen(key, aad, Buffer.alloc(0))).toBeUndefined();
    expect(aeadOpen(randomBytes(KEY_BYTES), aad, sealed)).toBeUndefined();
    expect(aeadOpen(key, Buffer.from('instance-2.20260304.0a1b2c3d'), sealed)).toBeUndefined();
  });

  it('seals an empty plaintext too', () => {
    const sealed = aeadSeal(key, aad, Buffer.alloc(0));
    expect(aeadOpen(key, aad, sealed)?.length).toBe(0);
  });
});
