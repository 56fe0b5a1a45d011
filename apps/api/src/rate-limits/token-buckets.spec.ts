import { TokenBuckets } from './token-buckets';

describe('token buckets', () => {
  it('allows a burst of the per-minute limit, then asks to wait, then refills over time', () => {
    let now = 0;
    const buckets = new TokenBuckets(6, () => now);
    for (let i = 0; i < 6; i++) expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(10); // one token per 10 s
    expect(buckets.take('b')).toBe(0); // keys are independent
    now += 10_000;
    expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(10);
  });

  it('tells how long to wait without spending, and does nothing at a limit of 0', () => {
    let now = 0;
    const buckets = new TokenBuckets(1, () => now);
    expect(buckets.wait('a')).toBe(0);
    buckets.take('a');
    expect(buckets.wait('a')).toBe(60);
    now += 30_000;
    expect(buckets.wait('a')).toBe(30);
    const off = new TokenBuckets(0);
    for (let i = 0; i < 1000; i++) expect(off.take('x')).toBe(0);
  });

  it('stays within its memory bound whatever the keys carry, dropping the least recently used first', () => {
    const maxBytes = 64 * 1024;
    const buckets = new TokenBuckets(1, () => 0, maxBytes);
    buckets.take('a');
    for (let i = 0; i < 300; i++) {
      buckets.take(`${i}`.padEnd(60_000, 'x'));
      expect(buckets.usage.bytes).toBeLessThanOrEqual(maxBytes);
    }
    for (let i = 0; i < 10_000; i++) buckets.take(`key-${i}`);
    expect(buckets.usage.bytes).toBeLessThanOrEqual(maxBytes);
    expect(buckets.usage.keys).toBeGreaterThan(100);
    // 'a' was dropped as the least recently used, so it has a full bucket again.
    expect(buckets.take('a')).toBe(0);
    // A recently used key is kept: its bucket is still empty.
    expect(buckets.take('key-9999')).toBe(60);
  });

  it('counts nothing for keys that only asked how long to wait', () => {
    const buckets = new TokenBuckets(5, () => 0);
    for (let i = 0; i < 1000; i++) expect(buckets.wait(`k${i}`)).toBe(0);
    expect(buckets.usage).toEqual({ keys: 0, bytes: 0 });
  });
});
