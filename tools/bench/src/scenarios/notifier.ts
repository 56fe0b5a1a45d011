import { Pool } from 'undici';
import { ArrivalCounter, messageIdsOf } from '../support/arrivals';
import { NodeChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, MiB, type ScenarioResult } from '../support/figures';
import { latencyRun } from '../support/latency-run';
import { NotifierStack } from '../support/notifier-stack';
import { benchMessage, notificationBody, webhookHeaders } from '../support/traffic';

interface Throughput {
  count: number;
  notifications: number;
  seconds: number;
  perSecond: number;
  duplicates: number;
  failures: number;
  recordingSeconds?: number;
}

async function latencyPhase(ctx: BenchContext, stack: NotifierStack) {
  const { latencyRate: rate, latencySeconds: seconds } = ctx.sizes;
  const ingest = new Pool(stack.fixture.api.url('internal'), { connections: 32 });
  const direct = new Pool(stack.receiver.url(''), { connections: 32 });
  try {
    ctx.log(`d: latency, ${rate}/s for ${seconds} s through the ingest host`);
    const notifier = await latencyRun(stack, rate, seconds, 'lat', async (index, n) => {
      const answer = await ingest.request({
        path: `/instances/${stack.instances[index].instanceid}/messages`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.fixture.secrets.internalToken}` },
        body: JSON.stringify(benchMessage('lat', index, n)),
      });
      await answer.body.dump();
      return answer.statusCode;
    });
    ctx.log(`d: latency baseline, ${rate}/s straight to the receiver`);
    const baseline = await latencyRun(stack, rate, seconds, 'latbase', async (index, n) => {
      const body = notificationBody(stack.instances[index].instanceid, n, benchMessage('latbase', index, n));
      const answer = await direct.request({
        path: `/hook/${index}`,
        method: 'POST',
        headers: webhookHeaders(`msg_latbase_${index}_${n}`),
        body,
      });
      await answer.body.dump();
      return answer.statusCode;
    });
    return { notifier, baseline };
  } finally {
    await ingest.close();
    await direct.close();
  }
}

/** Counts arrived messages (once per webhook id) until `total` came; the rate is from `startedAt`. */
async function countArrivals(
  stack: NotifierStack,
  total: number,
  run: () => Promise<{ startedAt: number; failures?: number; recordingSeconds?: number }>,
): Promise<Throughput> {
  const counter = new ArrivalCounter();
  stack.receiver.onRequest = ({ webhookId, json, arrivedAt }) =>
    counter.record(webhookId, messageIdsOf(json).length, arrivedAt);
  const done = counter.until(total, Math.max(120_000, total * 10));
  const started = await run();
  await done;
  const seconds = (counter.lastArrival - started.startedAt) / 1000;
  const { recordingSeconds } = started;
  return {
    count: counter.count,
    notifications: counter.notifications,
    seconds,
    perSecond: counter.count / seconds,
    duplicates: counter.duplicates,
    failures: started.failures ?? 0,
    ...(recordingSeconds === undefined ? {} : { recordingSeconds }),
  };
}

async function throughputPhase(ctx: BenchContext, stack: NotifierStack) {
  const { notificationsPerInstance: perInstance, notifierConcurrency } = ctx.sizes;
  const total = perInstance * stack.instances.length;
  const ids = stack.instances.map((i) => i.instanceid).join(',');
  ctx.log(`d: throughput baseline, undici POSTs ${total} bodies at concurrency ${notifierConcurrency}`);
  const baseline = await countArrivals(stack, total, async () => {
    const sender = NodeChild.start('undici-sender', [
      '--origin',
      stack.receiver.url(''),
      '--instances',
      ids,
      '--per-instance',
      String(perInstance),
      '--concurrency',
      String(notifierConcurrency),
      '--run-id',
      'base',
    ]);
    const result = await sender.nextLine<{ startedAt: number; failures: number }>();
    await sender.exited;
    return { startedAt: result.startedAt, failures: result.failures };
  });
  ctx.log(`d: throughput, ${total} notifications over ${stack.instances.length} instances (API stopped)`);
  await stack.fixture.api.stop();
  // The notifier's CPU time for the run: unlike the rate, it hardly moves with the machine's load.
  const cpuBefore = stack.notifier.cpuSeconds();
  const notifier = await countArrivals(stack, total, async () => {
    const recorder = NodeChild.start('record-messages', [
      '--file',
      stack.fixture.storeFile,
      '--instances',
      ids,
      '--per-instance',
      String(perInstance),
      '--run-id',
      'tput',
      '--secrets-key',
      stack.fixture.secrets.secretsKey,
    ]);
    const result = await recorder.nextLine<{ startedAt: number; endedAt: number }>();
    await recorder.exited;
    // The run's messages became visible to the notifier at once, when the recording committed
    // (endedAt): the delivery rate is the notifier's from there. Recording has its own figure.
    return { startedAt: result.endedAt, recordingSeconds: (result.endedAt - result.startedAt) / 1000 };
  });
  return {
    notifier,
    baseline,
    notifierMemory: stack.notifier.memory(),
    notifierCpuSeconds: stack.notifier.cpuSeconds() - cpuBefore,
  };
}

/**
 * d. The notifier: messages delivered/s from the moment the run's messages are recorded (one commit) to the last receipt, against undici POSTing the
 * same bodies at the same concurrency; and recorded-to-received latency at a steady offered rate.
 */
export async function scenarioD(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const stack = await NotifierStack.start(ctx, 'd');
  try {
    const latency = await latencyPhase(ctx, stack);
    const throughput = await throughputPhase(ctx, stack);
    return {
      id: 'd',
      title: `notifier: ${throughput.notifier.count} messages in ${throughput.notifier.notifications} notifications, latency at ${ctx.sizes.latencyRate}/s`,
      baseline: 'undici POSTs of the same bodies, same concurrency; latency: direct POSTs at the same rate',
      figures: [
        figure('d.rps', 'messages delivered/s', '', throughput.notifier.perSecond, throughput.baseline.perSecond, {
          on: 'ratio',
          op: '>=',
          target: 0.7,
        }),
        // How fast the recording child sealed, chained and wrote those messages (one group commit).
        figure(
          'd.recorded',
          'messages recorded/s (recording child)',
          '',
          throughput.notifier.count / (throughput.notifier.recordingSeconds ?? Number.NaN),
        ),
        figure(
          'd.p50',
          `p50 recorded→received @${ctx.sizes.latencyRate}/s`,
          'ms',
          latency.notifier.latency.p50,
          latency.baseline.latency.p50,
        ),
        figure(
          'd.p99',
          `p99 recorded→received @${ctx.sizes.latencyRate}/s`,
          'ms',
          latency.notifier.latency.p99,
          latency.baseline.latency.p99,
          { on: 'value', op: '<', target: 50 },
        ),
        figure('d.afterAnswerP99', 'p99 of that after the ingest 202', 'ms', latency.notifier.afterAnswer.p99),
        figure('d.rss', 'notifier RSS after the run', 'MiB', throughput.notifierMemory.rss / MiB),
        figure(
          'd.cpu',
          'notifier CPU per 1,000 messages delivered',
          'ms',
          (throughput.notifierCpuSeconds * 1e6) / throughput.notifier.count,
        ),
      ],
      raw: { throughput, latency },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await stack.stop();
  }
}
