import { setTimeout as sleep } from 'node:timers/promises';
import { epochMs } from '@gw/testing/receiver';
import { Pool } from 'undici';
import { messageIdsOf } from '../support/arrivals';
import type { BenchContext } from '../support/context';
import { figure, type Figure, type ScenarioResult } from '../support/figures';
import { latencyRun, type LatencyRun } from '../support/latency-run';
import { NotifierStack } from '../support/notifier-stack';
import { benchMessage, notificationBody, webhookHeaders } from '../support/traffic';

/** The latency goal at every rate up to the knee (ms, p99 recorded→received). */
const GOAL_MS = 50;
/** After the heaviest load stops, probes are sent this often for this long. */
const PROBE_EVERY_MS = 100;
const PROBE_FOR_MS = 15_000;

/** CPU seconds used by the API, the notifier and this process (the probe: sender and receiver). */
interface CpuUse {
  api: number;
  notifier: number;
  probe: number;
  /** Wall-clock seconds they were measured over. */
  seconds: number;
}

function cpuNow(stack: NotifierStack): CpuUse {
  const own = process.cpuUsage();
  return {
    api: stack.fixture.api.cpuSeconds(),
    notifier: stack.notifier.cpuSeconds(),
    probe: (own.user + own.system) / 1e6,
    seconds: performance.now() / 1000,
  };
}

function cpuSince(stack: NotifierStack, before: CpuUse): CpuUse {
  const now = cpuNow(stack);
  return {
    api: now.api - before.api,
    notifier: now.notifier - before.notifier,
    probe: now.probe - before.probe,
    seconds: now.seconds - before.seconds,
  };
}

/** CPU milliseconds per 1,000 accepted messages. */
const perThousand = (cpuSeconds: number, run: LatencyRun): number => (cpuSeconds * 1e6) / Math.max(1, run.accepted);

interface Recovery {
  /** When the last probe over GOAL_MS was sent, after the load stopped (0: none was over). */
  backUnderGoalAfterMs: number;
  probes: Array<{ afterMs: number; latencyMs: number | null }>;
}

/**
 * Probes recorded→received latency after the load stops: one message every PROBE_EVERY_MS for
 * PROBE_FOR_MS, on instance 0, watching the receiver beside the load's own handler.
 */
async function recovery(
  stack: NotifierStack,
  send: (index: number, n: number, runId: string) => Promise<number>,
  loadEndsAt: number,
): Promise<Recovery> {
  const sentAt = new Map<string, number>();
  const latencies = new Map<string, number>();
  const load = stack.receiver.onRequest;
  stack.receiver.onRequest = (request) => {
    load?.(request);
    for (const id of messageIdsOf(request.json)) {
      const at = sentAt.get(id);
      if (at !== undefined) latencies.set(id, request.arrivedAt - at);
    }
  };
  // Timers may fire a little early by the epoch clock: the first probe is never sent before the end.
  while (epochMs() < loadEndsAt) await sleep(Math.max(1, loadEndsAt - epochMs()));
  const probes: Array<{ id: string; afterMs: number }> = [];
  for (let n = 1; n * PROBE_EVERY_MS <= PROBE_FOR_MS; n++) {
    const id = benchMessage('probe', 0, n).id;
    sentAt.set(id, epochMs());
    probes.push({ id, afterMs: epochMs() - loadEndsAt });
    void send(0, n, 'probe').catch(() => undefined);
    await sleep(PROBE_EVERY_MS);
  }
  const deadline = Date.now() + 30_000;
  while (latencies.size < probes.length && Date.now() < deadline) await sleep(20);
  const measured = probes.map(({ id, afterMs }) => ({ afterMs, latencyMs: latencies.get(id) ?? null }));
  const over = measured.filter((p) => p.latencyMs === null || p.latencyMs >= GOAL_MS);
  return { backUnderGoalAfterMs: over.length ? over[over.length - 1].afterMs : 0, probes: measured };
}

/**
 * i. Capacity: messages offered through the ingest host at increasing rates (an open loop, like d's
 * latency phase), both apps on the embedded store as `npm start` runs them, timed until a real
 * receiver on loopback gets them; the baseline is the same bodies POSTed straight to the receiver at
 * the same rate. After the heaviest rate stops, how long until a new message is under 50 ms again.
 * The first rate is first offered for `capacityColdSeconds` right after the start, reported apart.
 */
export async function scenarioI(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const { capacityRates: rates, capacitySeconds: seconds, capacityColdSeconds: coldSeconds } = ctx.sizes;
  const stack = await NotifierStack.start(ctx, 'i');
  const ingest = new Pool(stack.fixture.api.url('internal'), { connections: 256 });
  const direct = new Pool(stack.receiver.url(''), { connections: 256 });
  const throughIngest = async (index: number, n: number, runId: string) => {
    const answer = await ingest.request({
      path: `/instances/${stack.instances[index].instanceid}/messages`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.fixture.secrets.internalToken}` },
      body: JSON.stringify(benchMessage(runId, index, n)),
    });
    await answer.body.dump();
    return answer.statusCode;
  };
  try {
    // The first seconds after the apps start are slower (JIT, caches, SQLite's page cache, every
    // instance's first notification): measured apart, so that the rates after compare steady states.
    const coldRate = rates[0];
    ctx.log(`i: cold start, ${coldRate}/s for ${coldSeconds} s through the ingest host`);
    const coldCpuBefore = cpuNow(stack);
    const cold = await latencyRun(stack, coldRate, coldSeconds, 'cold', (index, n) => throughIngest(index, n, 'cold'));
    const coldCpu = cpuSince(stack, coldCpuBefore);
    const runs: Array<{ rate: number; service: LatencyRun; baseline: LatencyRun; cpu: CpuUse }> = [];
    let recovered: Recovery | undefined;
    for (const [k, rate] of rates.entries()) {
      ctx.log(`i: ${rate}/s for ${seconds} s through the ingest host`);
      const runId = `cap${k}`;
      const last = k === rates.length - 1;
      const loadEndsAt = epochMs() + seconds * 1000;
      const cpuBefore = cpuNow(stack);
      const service = latencyRun(stack, rate, seconds, runId, (index, n) => throughIngest(index, n, runId), 60_000);
      const probing = last ? recovery(stack, throughIngest, loadEndsAt) : undefined;
      const measured = await service;
      const cpu = cpuSince(stack, cpuBefore);
      recovered = await probing;
      ctx.log(`i: baseline, ${rate}/s straight to the receiver`);
      const baseline = await latencyRun(stack, rate, Math.min(seconds, 5), `${runId}base`, async (index, n) => {
        const body = notificationBody(stack.instances[index].instanceid, n, benchMessage(`${runId}base`, index, n));
        const answer = await direct.request({
          path: `/hook/${index}`,
          method: 'POST',
          headers: webhookHeaders(`msg_${runId}base_${index}_${n}`),
          body,
        });
        await answer.body.dump();
        return answer.statusCode;
      });
      runs.push({ rate, service: measured, baseline, cpu });
    }
    const knee = runs
      .filter((r) => r.service.latency.p99 < GOAL_MS && r.service.lost === 0)
      .reduce((best, r) => Math.max(best, r.rate), 0);
    const figures: Figure[] = runs.flatMap(({ rate, service, baseline, cpu }, k) => {
      const goal = k < runs.length - 1 ? ({ on: 'value', op: '<', target: GOAL_MS } as const) : undefined;
      return [
        figure(`i.p50@${rate}`, `p50 recorded→received @${rate}/s`, 'ms', service.latency.p50, baseline.latency.p50),
        figure(
          `i.p99@${rate}`,
          `p99 recorded→received @${rate}/s`,
          'ms',
          service.latency.p99,
          baseline.latency.p99,
          goal,
        ),
        figure(
          `i.accepted@${rate}`,
          `accepted/s (202) @${rate}/s`,
          '',
          service.accepted / seconds,
          service.offeredPerSecond,
        ),
        figure(
          `i.refused@${rate}`,
          `refused 0010/0011 @${rate}/s`,
          '',
          (service.statuses['429'] ?? 0) + (service.statuses['503'] ?? 0),
        ),
        figure(`i.lost@${rate}`, `accepted and not received @${rate}/s`, '', service.lost, undefined, {
          on: 'value',
          op: '<=',
          target: 0,
        }),
        figure(`i.backlog@${rate}`, `most accepted, not yet received @${rate}/s`, '', service.maxBacklog),
        figure(
          `i.perRequest@${rate}`,
          `messages per request to the receiver @${rate}/s`,
          '',
          (service.accepted - service.lost) / Math.max(1, service.requests),
        ),
        figure(
          `i.cpuApi@${rate}`,
          `API CPU per 1,000 messages accepted @${rate}/s`,
          'ms',
          perThousand(cpu.api, service),
        ),
        figure(
          `i.cpuNotifier@${rate}`,
          `notifier CPU per 1,000 messages accepted @${rate}/s`,
          'ms',
          perThousand(cpu.notifier, service),
        ),
        figure(
          `i.cores@${rate}`,
          `cores busy @${rate}/s: API, notifier and this probe (sender and receiver)`,
          '',
          (cpu.api + cpu.notifier + cpu.probe) / cpu.seconds,
        ),
        figure(
          `i.cpuProbe@${rate}`,
          `this probe's CPU per 1,000 messages accepted @${rate}/s`,
          'ms',
          perThousand(cpu.probe, service),
        ),
        // While a notification carries one message (perRequest near 1), the probe's work per message
        // is fixed, so its CPU per message follows the machine's speed in the same seconds: the
        // apps' CPU as a multiple of it compares commits across hours (bench/README, "A gauge", 2026-12-08).
        figure(
          `i.cpuPerProbe@${rate}`,
          `API and notifier CPU per message as a multiple of this probe's @${rate}/s`,
          '',
          (cpu.api + cpu.notifier) / Math.max(Number.EPSILON, cpu.probe),
        ),
      ];
    });
    figures.unshift(
      figure(
        `i.coldP50`,
        `p50 recorded→received, first ${coldSeconds} s after the start @${coldRate}/s`,
        'ms',
        cold.latency.p50,
      ),
      figure(
        `i.coldP99`,
        `p99 recorded→received, first ${coldSeconds} s after the start @${coldRate}/s`,
        'ms',
        cold.latency.p99,
      ),
      figure(`i.coldLost`, `accepted and not received, first ${coldSeconds} s`, '', cold.lost, undefined, {
        on: 'value',
        op: '<=',
        target: 0,
      }),
      // Beside the same figures of the steady rates: what the first seconds cost more per message.
      figure(
        `i.coldCpuApi`,
        `API CPU per 1,000 messages accepted, first ${coldSeconds} s`,
        'ms',
        perThousand(coldCpu.api, cold),
      ),
      figure(
        `i.coldCpuNotifier`,
        `notifier CPU per 1,000 messages accepted, first ${coldSeconds} s`,
        'ms',
        perThousand(coldCpu.notifier, cold),
      ),
    );
    figures.push(figure('i.knee', `highest offered rate with p99 < ${GOAL_MS} ms, nothing lost`, '/s', knee));
    if (recovered)
      figures.push(
        figure(
          'i.recovery',
          `back under ${GOAL_MS} ms after the ${rates[rates.length - 1]}/s load stopped`,
          'ms',
          recovered.backUnderGoalAfterMs,
          undefined,
          { on: 'value', op: '<=', target: 10_000 },
        ),
      );
    return {
      id: 'i',
      title: `capacity: ${rates.join(', ')} messages/s offered through the ingest host, ${seconds} s each`,
      baseline: 'the same bodies POSTed straight to the receiver at the same rate',
      figures,
      raw: { cold, coldCpu, runs, recovery: recovered },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await ingest.close();
    await direct.close();
    await stack.stop();
  }
}
