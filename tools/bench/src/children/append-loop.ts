// Baseline of scenarios b and c: the embedded store's own append loop in one process, one event
// per append with the store's durability (each commit fsynced before it is answered), for a fixed time.
import { randomBytes, randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { childArgs, emit, required } from '../support/child';
import { percentile } from '../support/figures';

const args = childArgs();
const seconds = Number(required(args, 'seconds'));
const mode = required(args, 'mode') as 'webhook' | 'create';
const streams = Number(args.get('streams') ?? '256');
const store = new SqliteEventStore({ file: required(args, 'file') });

/** The next append: a WebhookSet on one of `streams` instances, alternating URLs, or a new instance. */
function nextAppend(n: number, revisions: bigint[]) {
  const now = new Date().toISOString();
  if (mode === 'create') {
    const instanceId = randomBytes(12).toString('hex');
    const data = {
      instanceId,
      accountId: '0'.repeat(32),
      packageId: 'monthly',
      tokenHash: `sha256:${'0'.repeat(64)}`,
      createdAt: now,
      expiresAt: now,
    };
    return {
      stream: `instance-${instanceId}`,
      event: { id: randomUUID(), type: 'InstanceCreated', data },
      expected: 'no_stream' as const,
      slot: -1,
    };
  }
  const slot = n % streams;
  const instanceId = `bench${String(slot).padStart(19, '0')}`;
  const url = `https://8.8.8.8/${(n / streams) % 2 < 1 ? 'a' : 'b'}`;
  const expected = revisions[slot] < 0n ? ('no_stream' as const) : revisions[slot];
  return {
    stream: `instance-${instanceId}`,
    event: { id: randomUUID(), type: 'WebhookSet', data: { instanceId, url, setAt: now } },
    expected,
    slot,
  };
}

async function main(): Promise<void> {
  const revisions = Array.from({ length: streams }, () => -1n);
  const latencies: number[] = [];
  const warmUpUntil = performance.now() + Math.min(1000, (seconds * 1000) / 5);
  let started = 0;
  let n = 0;
  for (;;) {
    const now = performance.now();
    if (!started && now >= warmUpUntil) started = now;
    if (started && now - started >= seconds * 1000) break;
    const { stream, event, expected, slot } = nextAppend(n++, revisions);
    const t0 = performance.now();
    const result = await store.append(stream, [event], expected);
    if (started) latencies.push(performance.now() - t0);
    if (slot >= 0) revisions[slot] = result.nextExpectedRevision;
  }
  const elapsed = (performance.now() - started) / 1000;
  await store.close();
  emit({
    appends: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  });
}

void main();
