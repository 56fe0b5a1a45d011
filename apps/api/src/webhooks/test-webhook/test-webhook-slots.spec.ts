import type { WebhooksConfig } from '@gw/config';
import { Codes, Refusal } from '@gw/contract';
import { TestWebhookSlots } from './test-webhook-slots';

const slotsOf = (testConcurrency: number) =>
  new TestWebhookSlots({ deliveryTimeoutMs: 15_000, testConcurrency } as WebhooksConfig);

function refusal(take: () => unknown): Refusal {
  try {
    take();
  } catch (error) {
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).violations.map((v) => v.code)).toEqual([Codes.TooManyRequests]);
    return error as Refusal;
  }
  throw new Error('expected a rate-limit Refusal');
}

describe('TestWebhookSlots', () => {
  it('holds one slot per instance, says when it is due back, and gives it back once', () => {
    const slots = slotsOf(32);
    const release = slots.take('a', 0);
    expect(refusal(() => slots.take('a', 4_000)).retryAfterSeconds).toBe(12);
    slots.take('b', 4_000);
    release();
    release();
    expect(slots.inFlight).toBe(1);
    slots.take('a', 5_000);
  });

  it('holds at most the configured number in all; the wait is for the first one due back', () => {
    const slots = slotsOf(2);
    slots.take('a', 0);
    const releaseB = slots.take('b', 10_000);
    expect(refusal(() => slots.take('c', 15_500)).retryAfterSeconds).toBe(1);
    releaseB();
    slots.take('c', 15_500);
  });
});
