/**
 * Token buckets by key: each key may spend `perMinute` tokens a minute, refilled continuously, with
 * bursts up to `perMinute`. Buckets that are full again are dropped, so memory follows the keys that
 * are busy now; past `maxKeys` the oldest are dropped first.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  /** Spends one token; returns 0 when allowed, else the whole seconds until one is available. */
  take(key: string): number {
    if (this.perMinute <= 0) return 0;
    const bucket = this.current(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.store(key, bucket);
      return 0;
    }
    this.store(key, bucket);
    return Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / this.perMinute));
  }

  /** Seconds until `key` has a token again, without spending one (0: it has one now). */
  wait(key: string): number {
    if (this.perMinute <= 0) return 0;
    const bucket = this.current(key);
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - bucket.tokens) * 60) / this.perMinute));
  }

  private current(key: string): { tokens: number; at: number } {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.perMinute, at: now };
    const refilled = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    return { tokens: refilled, at: now };
  }

  private store(key: string, bucket: { tokens: number; at: number }): void {
    this.buckets.delete(key);
    if (bucket.tokens >= this.perMinute) return;
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}
