// Baseline of scenario d: POSTs the notifier's bodies (same sizes and headers, no signing) to the
// receiver with undici, at the notifier's concurrency, as fast as the receiver takes them.
import { epochMs } from '@gw/testing/receiver';
import { Pool } from 'undici';
import { childArgs, emit, required } from '../support/child';
import { benchMessage, notificationBody, webhookHeaders } from '../support/traffic';

const args = childArgs();
const origin = required(args, 'origin');
const instances = required(args, 'instances').split(',');
const perInstance = Number(required(args, 'per-instance'));
const concurrency = Number(required(args, 'concurrency'));
const runId = required(args, 'run-id');

async function main(): Promise<void> {
  // In the order the notifier meets them: each instance's sequence in turn, instances interleaved.
  const work: Array<{ path: string; body: string; webhookId: string }> = [];
  for (let n = 1; n <= perInstance; n++) {
    for (const [index, instanceId] of instances.entries()) {
      work.push({
        path: `/hook/${index}`,
        body: notificationBody(instanceId, n, benchMessage(runId, index, n)),
        webhookId: `msg_${runId}_${index}_${n}`,
      });
    }
  }
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1, keepAliveTimeout: 60_000 });
  let next = 0;
  let failures = 0;
  const startedAt = epochMs();
  const worker = async () => {
    for (let i = next++; i < work.length; i = next++) {
      const { path, body, webhookId } = work[i];
      const answer = await pool.request({ origin, path, method: 'POST', headers: webhookHeaders(webhookId), body });
      await answer.body.dump();
      if (answer.statusCode !== 200) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const endedAt = epochMs();
  await pool.close();
  emit({ startedAt, endedAt, sent: work.length, failures });
}

void main();
