import type { OpenNotification } from '@gw/domain-notifications';
import { DueIndex } from './due-index';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function pending(webhookId: string, dueInMs: number | null): OpenNotification {
  return {
    webhookId,
    sequence: 1,
    body: null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: dueInMs === null ? null : at(dueInMs),
  };
}

const dueIds = (index: DueIndex, ms: number) =>
  [...index.due(T0 + ms)].map(({ instanceId, notification }) => `${instanceId}:${notification.webhookId}`);

describe('DueIndex: each instance’s next attempt by when it falls due', () => {
  it('gives only what is due, keeps it due until it changes, and says when the next one falls due', () => {
    const index = new DueIndex();
    index.set('a', pending('a1', 300));
    index.set('b', pending('b1', 100));
    index.set('c', pending('c1', 200));
    expect(dueIds(index, 50)).toEqual([]);
    expect(index.nextAfterDue()).toBe(T0 + 100);
    // Earliest first among those that fell due together.
    expect(dueIds(index, 250)).toEqual(['b:b1', 'c:c1']);
    expect(index.nextAfterDue()).toBe(T0 + 300);
    // Not started (its account at its share, say): still due on the next turn.
    expect(dueIds(index, 260)).toEqual(['b:b1', 'c:c1']);
    // Attempted: its next attempt is an hour away, or it has none.
    index.set('b', pending('b1', 3_600_000));
    index.set('c', undefined);
    expect(dueIds(index, 270)).toEqual([]);
    expect(dueIds(index, 300)).toEqual(['a:a1']);
    expect(index.nextAfterDue()).toBe(T0 + 3_600_000);
  });

  it('forgets a replaced attempt, whether it was due or waiting', () => {
    const index = new DueIndex();
    index.set('a', pending('a1', 1000));
    index.set('a', pending('a2', 10));
    expect(dueIds(index, 2000)).toEqual(['a:a2']);
    index.set('a', pending('a3', 5000));
    expect(dueIds(index, 2000)).toEqual([]);
    expect(index.nextAfterDue()).toBe(T0 + 5000);
    // A notification with no time to attempt it at (a probe waiting for its turn) is not due.
    index.set('a', pending('a4', null));
    expect(dueIds(index, 10_000)).toEqual([]);
    expect(index.nextAfterDue()).toBe(Number.POSITIVE_INFINITY);
  });

  it('stays in order and bounded through many replacements of attempts far away', () => {
    const index = new DueIndex();
    const instances = 50;
    // Every instance's retry is hours away while new notifications come and go before it: each
    // change leaves a replaced entry in the heap until it would have surfaced.
    for (let round = 0; round < 200; round++)
      for (let i = 0; i < instances; i++) {
        index.set(`i${i}`, pending(`new${round}`, 0));
        index.set(`i${i}`, pending(`retry${i}`, 3_600_000 + i * 1000 - round));
      }
    expect((index as unknown as { waiting: unknown[] }).waiting.length).toBeLessThanOrEqual(2 * instances + 64);
    expect(dueIds(index, 3_600_000 + 10 * 1000)).toEqual(Array.from({ length: 11 }, (_, i) => `i${i}:retry${i}`));
    expect(index.nextAfterDue()).toBe(T0 + 3_600_000 + 11 * 1000 - 199);
  });

  it('treats a time it cannot parse as due at once', () => {
    const index = new DueIndex();
    index.set('a', { ...pending('a1', 0), nextAttemptAt: 'not a time' });
    expect(dueIds(index, -1000)).toEqual(['a:a1']);
  });

  it('starts empty again when cleared', () => {
    const index = new DueIndex();
    index.set('a', pending('a1', 0));
    index.clear();
    expect(dueIds(index, 1000)).toEqual([]);
    expect(index.nextAfterDue()).toBe(Number.POSITIVE_INFINITY);
  });
});
