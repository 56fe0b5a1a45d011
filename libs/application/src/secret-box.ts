import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const VERSION = 'v1';

/**
 * Encrypts secrets that must be readable again (webhook signing secrets) with AES-256-GCM, so that
 * the log and the read models only ever hold them encrypted. Format: `v1.<base64url iv|ciphertext|tag>`.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${sealed.toString('base64url')}`;
  }

  /** Secrets opened before, by sealed form: the instance host shows a secret on every status read
   * and the notifier signs every delivery with one, so each is decrypted once per process. Made on
   * first use: most boxes only seal (account identity makes one per call), and the cache sets aside
   * its slots when made. */
  private opened?: LRUCache<string, string>;

  /** A keyed fingerprint of `plaintext` (HMAC-SHA256 under a key derived from this box's): equal
   * texts give equal fingerprints, so that a sealed value can be compared with a new one without
   * opening it, and without the key nothing about the text can be guessed from it. */
  fingerprint(plaintext: string): string {
    this.fingerprintKey ??= createHmac('sha256', this.key).update('fingerprint').digest();
    return `hmac-sha256:${createHmac('sha256', this.fingerprintKey).update(plaintext, 'utf8').digest('hex')}`;
  }

  private fingerprintKey?: Buffer;

  /** Throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    this.opened ??= new LRUCache({ max: 100_000 });
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plaintext = this.decrypt(sealed);
    this.opened.set(sealed, plaintext);
    return plaintext;
  }

  /** Opens without remembering the result: for data keys (crypto-shredding), which must not outlive
   * their erasure in this process's memory. Throws as `open` does. */
  openFresh(sealed: string): string {
    return this.decrypt(sealed);
  }

  private decrypt(sealed: string): string {
    const [version, payload] = sealed.split('.');
    if (version !== VERSION || !payload) throw new Error('not a sealed secret');
    const bytes = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
  }
}
