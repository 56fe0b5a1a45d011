import * as crypto from 'node:crypto';
import { hashSecret, newSecret, secretMatches } from './secrets';

// Counts the hashing and comparing done per check: the work must not depend on whether the
// account or instance exists, or timing would tell an unknown one from a wrong secret.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return {
    ...actual,
    createHash: jest.fn(actual.createHash),
    hash: jest.fn(actual.hash),
    timingSafeEqual: jest.fn(actual.timingSafeEqual),
  };
});
const createHash = crypto.createHash as jest.Mock;
const oneShotHash = crypto.hash as unknown as jest.Mock;
const timingSafeEqual = crypto.timingSafeEqual as jest.Mock;

function workOf(check: () => boolean): { result: boolean; hashes: number; comparisons: number } {
  createHash.mockClear();
  oneShotHash.mockClear();
  timingSafeEqual.mockClear();
  const result = check();
  const hashes = createHash.mock.calls.length + oneShotHash.mock.calls.length;
  return { result, hashes, comparisons: timingSafeEqual.mock.calls.length };
}

describe('secretMatches', () => {
  const secret = newSecret('gwk');
  const stored = hashSecret(secret);

  it('accepts the right secret and refuses a wrong one', () => {
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret}x`, stored)).toBe(false);
    expect(secretMatches('', stored)).toBe(false);
  });

  it('does the same hashing and comparing for an unknown owner as for a wrong secret', () => {
    const wrong = workOf(() => secretMatches(newSecret('gwk'), stored));
    const unknown = workOf(() => secretMatches(newSecret('gwk'), undefined));
    const malformed = workOf(() => secretMatches(newSecret('gwk'), 'not a hash'));
    expect(unknown).toEqual(wrong);
    expect(malformed).toEqual(wrong);
    expect(wrong).toEqual({ result: false, hashes: 1, comparisons: 1 });
  });

  it('stores the hex SHA-256 of the secret, prefixed', () => {
    expect(hashSecret('gwk_abc')).toBe(`sha256:${crypto.createHash('sha256').update('gwk_abc').digest('hex')}`);
    expect(hashSecret('é')).toBe(
      'sha256:' + crypto.createHash('sha256').update(Buffer.from('é', 'utf8')).digest('hex'),
    );
  });

  it('never matches when nothing is stored, whatever is presented', () => {
    for (const presented of ['', 'no stored secret', secret]) expect(secretMatches(presented, undefined)).toBe(false);
  });
});
