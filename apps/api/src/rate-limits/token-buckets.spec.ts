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

  it('keeps at most maxKeys busy keys', () => {
    const buckets = new TokenBuckets(1, () => 0, 2);
    buckets.take('a');
    buckets.take('b');
    buckets.take('c');
    // 'a' was dropped as the oldest, so it has a full bucket again.
    expect(buckets.take('a')).toBe(0);
  });
});
