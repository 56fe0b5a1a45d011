import { createHash, hash } from 'node:crypto';

/** Node's one-shot `crypto.hash` (20.12 on) makes no Hash object. In hex it took about 0.4 us a call
 * here against 1.0-1.1 for `createHash(...).digest('hex')`; its 'buffer' output is slower (1.1 us)
 * than turning the hex into bytes (0.75), so `sha256` does that. */
const oneShot = typeof hash === 'function';

/** SHA-256 of a text's UTF-8 bytes, in hex. */
export function sha256Hex(text: string): string {
  return oneShot ? hash('sha256', text, 'hex') : createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 of a text's UTF-8 bytes. */
export function sha256(text: string): Buffer {
  return oneShot ? Buffer.from(hash('sha256', text, 'hex'), 'hex') : createHash('sha256').update(text, 'utf8').digest();
}
