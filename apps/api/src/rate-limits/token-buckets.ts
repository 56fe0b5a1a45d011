import { LRUCache } from 'lru-cache';

interface Bucket {
  tokens: number;
  at: number;
}

/** Estimated bytes of one entry beyond its key's characters: the cache's slots, the bucket object and
 * the key string's header. Measured with V8 at about 100; kept generous. */
const ENTRY_OVERHEAD_BYTES = 128;

/** Default memory bound of one set of buckets. */
const DEFAULT_MAX_BUCKET_BYTES = 8 * 1024 * 1024;

/**
 * Token buckets by key: each key may spend `perMinute` tokens a minute, refilled continuously, with
 * bursts up to `perMinute`. Buckets that are full again are dropped, so memory follows the keys that
 * are busy now, and it is bounded in bytes: past `maxBytes` the least recently used keys are
 * dropped first (a dropped key starts again with a full bucket).
 */
export class TokenBuckets {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    maxBytes = DEFAULT_MAX_BUCKET_BYTES,
  ) {
    this.buckets = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (_bucket, key) => key.length * 2 + ENTRY_OVERHEAD_BYTES,
    });
  }

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
    return this.secondsUntilToken(bucket.tokens);
  }

  /** Seconds until `key` has a token again, without spending one (0: it has one now). */
  wait(key: string): number {
    if (this.perMinute <= 0) return 0;
    // Asking does not count as a use: only spending keeps a key from being dropped.
    const bucket = this.buckets.peek(key);
    if (!bucket) return 0;
    const tokens = this.refilled(bucket);
    return tokens >= 1 ? 0 : this.secondsUntilToken(tokens);
  }

  /** Keys held and the bytes they are counted as (never above `maxBytes`). */
  get usage(): { keys: number; bytes: number } {
    return { keys: this.buckets.size, bytes: this.buckets.calculatedSize };
  }

  private secondsUntilToken(tokens: number): number {
    return Math.max(1, Math.ceil(((1 - tokens) * 60) / this.perMinute));
  }

  private refilled(bucket: Bucket): number {
    return Math.min(this.perMinute, bucket.tokens + ((this.now() - bucket.at) / 60_000) * this.perMinute);
  }

  private current(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.peek(key);
    if (!bucket) return { tokens: this.perMinute, at: now };
    return { tokens: this.refilled(bucket), at: now };
  }

  /** Keeps the bucket as the most recently used; a full one is dropped (it is what a new key gets),
   * and a key too long for the bound alone is never held. */
  private store(key: string, bucket: Bucket): void {
    if (bucket.tokens >= this.perMinute) this.buckets.delete(key);
    else this.buckets.set(key, bucket);
  }
}
