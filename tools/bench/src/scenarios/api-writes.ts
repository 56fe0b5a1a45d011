import { join } from 'node:path';
import { removeDir, tempDir } from '../support/apps';
import { runChild } from '../support/child';
import type { BenchContext } from '../support/context';
import { figure, type ScenarioResult } from '../support/figures';
import { ApiFixture, isSuccess, type Instance } from '../support/api-fixture';
import { load, type LoadOptions, type LoadResult } from '../support/load';
import { benchMessage } from '../support/traffic';

/** Instances that scenario b spreads its calls over: more than connections, so that two calls
 * to the same instance are (almost) never in flight at once and every call changes the URL. */
const WEBHOOK_INSTANCES = 256;
const URLS = ['https://8.8.8.8/a', 'https://8.8.8.8/b'];

interface AppendLoop {
  appends: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function appendLoop(ctx: BenchContext, mode: 'webhook' | 'create'): Promise<AppendLoop> {
  const dir = tempDir(`append-${mode}`);
  try {
    const seconds = String(ctx.sizes.httpSeconds + ctx.sizes.warmUpSeconds);
    return await runChild<AppendLoop>('append-loop', [
      '--file',
      join(dir, 'events.sqlite'),
      '--seconds',
      seconds,
      '--mode',
      mode,
      '--streams',
      String(WEBHOOK_INSTANCES),
    ]);
  } finally {
    removeDir(dir);
  }
}

/** Runs the load on a fresh API and counts the events of `eventType` that the measured run recorded. */
async function measureWrites(
  ctx: BenchContext,
  label: string,
  eventType: string,
  prepare: (fixture: ApiFixture) => Promise<Omit<LoadOptions, 'seconds' | 'connections'>>,
): Promise<{ result: LoadResult; recorded: number }> {
  const fixture = await ApiFixture.start(ctx, label);
  try {
    const options = await prepare(fixture);
    ctx.log(
      `${label}: API ${options.method} ${options.path.split('?')[0]}, ${ctx.sizes.connections} connections, ${ctx.sizes.httpSeconds} s`,
    );
    const sized = (seconds: number) => ({ ...options, connections: ctx.sizes.connections, seconds });
    await load(sized(ctx.sizes.warmUpSeconds));
    const before = fixture.countEvents(eventType);
    const result = await load(sized(ctx.sizes.httpSeconds));
    return { result, recorded: fixture.countEvents(eventType) - before };
  } finally {
    await fixture.stop();
  }
}

/** b. webhook (POST JSON), every call switching an instance between two URLs so that each records a
 * WebhookSet, against the store's own append loop (one WebhookSet per append, same durability). */
export async function scenarioB(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const { result: api, recorded } = await measureWrites(ctx, 'b', 'WebhookSet', async (fixture) => {
    const instances: Instance[] = await fixture.instances(WEBHOOK_INSTANCES);
    for (const instance of instances) await fixture.webhook(instance, URLS[0]);
    const current = instances.map(() => 0);
    let n = 0;
    return {
      origin: fixture.api.url('instance'),
      path: '/webhook',
      method: 'POST',
      next: () => {
        const i = n++ % instances.length;
        current[i] ^= 1;
        return { body: JSON.stringify({ ...instances[i], webhookUrl: URLS[current[i]] }) };
      },
      check: isSuccess,
    };
  });
  // The same calls all on one instance: commands on one stream take turns in the API (issue 27's
  // goal: p99 under 50 ms and never 0012).
  let conflicts = 0;
  const { result: hot, recorded: hotRecorded } = await measureWrites(
    ctx,
    'b-one-stream',
    'WebhookSet',
    async (fixture) => {
      const [instance] = await fixture.instances(1);
      await fixture.webhook(instance, URLS[0]);
      let n = 0;
      return {
        origin: fixture.api.url('instance'),
        path: '/webhook',
        method: 'POST',
        next: () => ({ body: JSON.stringify({ ...instance, webhookUrl: URLS[++n % 2] }) }),
        check: (body) => {
          if (body.includes('"0012"')) conflicts += 1;
          return isSuccess(body);
        },
      };
    },
  );
  ctx.log('b: baseline, SqliteEventStore append loop');
  const baseline = await appendLoop(ctx, 'webhook');
  const result = writeResult(
    'b',
    'webhook set, alternating two URLs (one WebhookSet per call)',
    api,
    recorded,
    baseline,
    started,
  );
  result.figures.push(
    figure('b.oneStream.rps', 'one instance: requests/s', '', hot.rps, baseline.perSecond),
    figure('b.oneStream.p99', 'one instance: p99 latency', 'ms', hot.p99, baseline.p99, {
      on: 'value',
      op: '<',
      target: 50,
    }),
    figure('b.oneStream.conflicts', 'one instance: answers 0012', '', conflicts, undefined, {
      on: 'value',
      op: '<=',
      target: 0,
    }),
  );
  result.raw['oneStream'] = { api: hot, eventsRecordedInMeasuredRun: hotRecorded, conflicts };
  return result;
}

/** c. newInstance (GET, account host), against the store's append loop creating new streams. */
export async function scenarioC(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const { result: api, recorded } = await measureWrites(ctx, 'c', 'InstanceCreated', async (fixture) => {
    const query = new URLSearchParams({
      email: fixture.account.email,
      token: fixture.account.apikey,
      packageid: 'monthly',
    });
    return {
      origin: fixture.api.url('account'),
      path: `/newInstance?${query}`,
      method: 'GET',
      next: () => ({}),
      check: isSuccess,
    };
  });
  ctx.log('c: baseline, SqliteEventStore append loop (new streams)');
  const baseline = await appendLoop(ctx, 'create');
  return writeResult('c', 'newInstance (GET, account host)', api, recorded, baseline, started);
}

/** h. ingest: the gateway records incoming messages (POST JSON with the bearer token, 202), against
 * the store's append loop; the same pipeline and group commit as b and c. */
export async function scenarioH(ctx: BenchContext): Promise<ScenarioResult> {
  const started = performance.now();
  const runId = `h${Date.now().toString(36)}`;
  const { result: api, recorded } = await measureWrites(ctx, 'h', 'MessageReceived', async (fixture) => {
    const instances = await fixture.instances(WEBHOOK_INSTANCES);
    let n = 0;
    return {
      origin: fixture.api.url('internal'),
      path: '/instances/x/messages',
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.secrets.internalToken}`, 'content-type': 'application/json' },
      next: () => {
        const i = n++ % instances.length;
        return {
          path: `/instances/${instances[i].instanceid}/messages`,
          body: JSON.stringify(benchMessage(runId, i, n)),
        };
      },
      check: (body) => body === '{"success":true}',
    };
  });
  ctx.log('h: baseline, SqliteEventStore append loop');
  const baseline = await appendLoop(ctx, 'webhook');
  return writeResult(
    'h',
    'ingest: POST /instances/{id}/messages (one MessageReceived per call)',
    api,
    recorded,
    baseline,
    started,
  );
}

function writeResult(
  id: string,
  title: string,
  api: LoadResult,
  recorded: number,
  baseline: AppendLoop,
  started: number,
): ScenarioResult {
  return {
    id,
    title,
    baseline: 'SqliteEventStore append loop, 1 event/append, one process',
    figures: [
      // Group commit must beat the naive loop, and a write must answer within 50 ms at p99.
      figure(`${id}.rps`, 'requests/s', '', api.rps, baseline.perSecond, { on: 'ratio', op: '>=', target: 1 }),
      figure(`${id}.p50`, 'p50 latency', 'ms', api.p50, baseline.p50),
      figure(`${id}.p99`, 'p99 latency', 'ms', api.p99, baseline.p99, { on: 'value', op: '<', target: 50 }),
    ],
    raw: { api, baseline, eventsRecordedInMeasuredRun: recorded, failures: api.failures },
    seconds: (performance.now() - started) / 1000,
  };
}
