import { chainHash, chainHashOfJson, UNREADABLE_KEY, verifyStreamChain } from './event-chain';
import type { RecordedEvent } from './event-store.port';

/** A stream of `n` events chained as an adapter chains them. */
function chained(n: number, firstRevision = 0n): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  let prev = '';
  for (let i = 0; i < n; i++) {
    const base = {
      id: `id-${i}`,
      streamName: 's-1',
      type: 'T',
      data: { i, text: `é${i}` },
      metadata: { by: 'x', nested: { i } },
    };
    prev = chainHash(prev, base);
    const revision = firstRevision + BigInt(i);
    events.push({
      ...base,
      metadata: { ...base.metadata, chain: prev },
      revision,
      position: revision + 1n,
      recordedAt: '2026-01-01T00:00:00.000Z',
    });
  }
  return events;
}

describe('event chain', () => {
  it('hashes the JSON texts as it hashes the values', () => {
    const event = { streamName: 's', id: 'i', type: 't', data: { a: [1, null, 'x'] }, metadata: { m: true } };
    expect(chainHash('prev', event)).toBe(
      chainHashOfJson('prev', 's', 'i', 't', JSON.stringify(event.data), JSON.stringify(event.metadata)),
    );
    expect(chainHash('prev', { ...event, metadata: { ...event.metadata, chain: 'ignored' } })).toBe(
      chainHash('prev', event),
    );
    expect(chainHash('other', event)).not.toBe(chainHash('prev', event));
  });

  it('holds for a whole stream, and for one that starts at a later revision (made anew)', () => {
    expect(verifyStreamChain(chained(5))).toEqual({ ok: true });
    expect(verifyStreamChain(chained(3, 7n))).toEqual({ ok: true });
    expect(verifyStreamChain([])).toEqual({ ok: true });
  });

  it.each([
    ['its data changed', (e: RecordedEvent[]) => (e[2] = { ...e[2], data: { i: 2, text: 'é3' } }), 2n],
    ['its type changed', (e: RecordedEvent[]) => (e[3] = { ...e[3], type: 'U' }), 3n],
    ['its metadata changed', (e: RecordedEvent[]) => (e[1] = { ...e[1], metadata: { ...e[1].metadata, by: 'y' } }), 1n],
    ['its id changed', (e: RecordedEvent[]) => (e[0] = { ...e[0], id: 'other' }), 0n],
    [
      'an event before it removed and the rest renumbered',
      (e: RecordedEvent[]) => e.splice(1, 1) && e.forEach((x, i) => (x.revision = BigInt(i))),
      1n,
    ],
    [
      'two events swapped and renumbered',
      (e: RecordedEvent[]) =>
        ([e[1], e[2]] = [
          { ...e[2], revision: 1n },
          { ...e[1], revision: 2n },
        ]),
      1n,
    ],
    ['a revision skipped', (e: RecordedEvent[]) => e.splice(2, 1), 3n],
    ['its chain missing', (e: RecordedEvent[]) => (e[4] = { ...e[4], metadata: { by: 'x', nested: { i: 4 } } }), 4n],
    [
      'its data unreadable',
      (e: RecordedEvent[]) =>
        (e[2] = { ...e[2], data: undefined, metadata: { ...e[2].metadata, [UNREADABLE_KEY]: ['data'] } }),
      2n,
    ],
  ])('names the first event that breaks it: %s', (_what, tamper, revision) => {
    const events = chained(5);
    tamper(events);
    const verdict = verifyStreamChain(events);
    expect(verdict).toMatchObject({ ok: false, revision });
    expect(verdict.ok || verdict.reason).not.toMatch(/[0-9a-f]{64}/);
  });
});
