import { createHash } from 'node:crypto';
import { sha256, sha256Hex } from './sha256';

describe('sha256', () => {
  it('is the SHA-256 of the text as UTF-8, as bytes and in hex', () => {
    for (const text of ['', 'bench-token é', 'x'.repeat(10_000)]) {
      const expected = createHash('sha256').update(text, 'utf8').digest();
      expect(Buffer.isBuffer(sha256(text))).toBe(true);
      expect(sha256(text).equals(expected)).toBe(true);
      expect(sha256Hex(text)).toBe(expected.toString('hex'));
    }
    expect(sha256Hex('bench-token é')).toBe('64b0c6c71ae6463184b61629f7fa5aeea9d9ed82c342c26b7b6dda36a3630fea');
  });
});
