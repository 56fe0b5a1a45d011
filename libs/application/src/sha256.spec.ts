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

describe('sha256 on a Node without crypto.hash (20.11, which engines allows)', () => {
  it('gives the same bytes and hex through createHash', () => {
    const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const createHashSpy = jest.fn(actual.createHash);
    jest.isolateModules(() => {
      jest.doMock('node:crypto', () => ({ ...actual, hash: undefined, createHash: createHashSpy }));
      const fallback = jest.requireActual<typeof import('./sha256')>('./sha256');
      for (const text of ['', 'bench-token é']) {
        const expected = createHash('sha256').update(text, 'utf8').digest();
        expect(fallback.sha256(text).equals(expected)).toBe(true);
        expect(fallback.sha256Hex(text)).toBe(expected.toString('hex'));
      }
    });
    jest.dontMock('node:crypto');
    expect(createHashSpy).toHaveBeenCalledTimes(4);
  });
});
