/**
 * Counts the messages carried by distinct notifications (by `webhook-id`; a notification may carry
 * several when batched) and notes when the last new one arrived.
 */
export class ArrivalCounter {
  private readonly seen = new Set<string>();
  private items = 0;
  duplicates = 0;
  lastArrival = 0;
  private waiter?: { count: number; resolve: () => void };

  /** Messages arrived, each counted once. */
  get count(): number {
    return this.items;
  }

  /** Distinct notifications arrived. */
  get notifications(): number {
    return this.seen.size;
  }

  record(id: string, items: number, arrivedAt: number): void {
    if (this.seen.has(id)) {
      this.duplicates += 1;
      return;
    }
    this.seen.add(id);
    this.items += items;
    this.lastArrival = arrivedAt;
    if (this.waiter && this.items >= this.waiter.count) this.waiter.resolve();
  }

  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  until(count: number, timeoutMs: number): Promise<void> {
    if (this.items >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.items} of ${count} messages arrived within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiter = {
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

/** The ids of the messages a notification carries (its body parsed as JSON). */
export function messageIdsOf(json: unknown): string[] {
  return ((json as { messages?: Array<{ id: string }> } | undefined)?.messages ?? []).map((m) => m.id);
}
