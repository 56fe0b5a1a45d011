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
    // One character inside the text changed (every one of its 6 bits is data there, unlike the last
    // character's): replacing the last two with "?A" left a value ending in "BA" as it was.
    const at = sealed.length - 5;
    const altered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`;
    expect(altered).not.toBe(sealed);
    expect(() => box.open(altered)).toThrow();
  });

  it('makes Standard Webhooks secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
  });
});
