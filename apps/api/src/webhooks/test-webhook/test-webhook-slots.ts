import { Injectable } from '@nestjs/common';
import type { WebhooksConfig } from '@gw/config';
import { Refusal } from '@gw/contract';
import { InjectConfig } from '@gw/nest-app';

/** Gives back a slot taken by `TestWebhookSlots.take`; a second call does nothing. */
export type ReleaseSlot = () => void;

/**
 * The ceiling on tests (docs/api.md 8.6): at most one testWebhook per instance in flight, and at
 * most TEST_WEBHOOK_CONCURRENCY in this process, so that tests to receivers that hang cannot tie up
 * the API's sockets and memory, nor one instance's tests the others'. A call over either answers
 * 0010 before any request goes out; its Retry-After is when the slot it waits for is due back at the
 * latest (a test is over within the delivery timeout), at least 1 s.
 */
@Injectable()
export class TestWebhookSlots {
  /** Instance id → when its test in flight is over at the latest (epoch ms). */
  private readonly deadlines = new Map<string, number>();
  private readonly holdMs: number;

  constructor(@InjectConfig('webhooks') private readonly config: WebhooksConfig) {
    // The attempt itself, then recording it: a second for the record is plenty in practice.
    this.holdMs = config.deliveryTimeoutMs + 1000;
  }

  /** Takes the instance's slot and one of the process's; throws a rate-limit Refusal when either is taken. */
  take(instanceId: string, now = Date.now()): ReleaseSlot {
    const own = this.deadlines.get(instanceId);
    if (own !== undefined) throw Refusal.rateLimited(secondsUntil(own, now));
    if (this.deadlines.size >= this.config.testConcurrency)
      throw Refusal.rateLimited(secondsUntil(Math.min(...this.deadlines.values()), now));
    this.deadlines.set(instanceId, now + this.holdMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.deadlines.delete(instanceId);
    };
  }

  /** Tests in flight now. */
  get inFlight(): number {
    return this.deadlines.size;
  }
}

function secondsUntil(deadline: number, now: number): number {
  return Math.max(1, Math.ceil((deadline - now) / 1000));
}
