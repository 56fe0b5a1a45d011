import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';
import { newSigningSecret } from './secrets';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed form does not contain the secret', () => {
    const secret = newSigningSecret();
    const sealed = box.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed)).toBe(secret);
  });

  it('seals the same secret differently each time', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a value sealed with another key or altered', () => {
    const sealed = box.seal('secret');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    const altered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => box.open(altered)).toThrow();
  });

  it('makes Standard Webhooks secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});
