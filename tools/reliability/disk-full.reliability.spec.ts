import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, expectSuccess, get, postJson, request } from '@gw/testing';
import { ChaosReceiver } from './support/chaos-receiver';
import { DiskFullLoad, WRITE_KINDS, type DeliveryInstance, type Outcome, type Phase } from './support/disk-full-load';
import { seedFor, seededRandom, sleep, until } from './support/env';
import { FileLoggedProcess } from './support/file-logged-process';
import { fillDisk, freeBytes, mountTmpfs, tmpfsUnavailableReason, unmountTmpfs } from './support/tmpfs';

/**
 * Issue 8, disk full: the API and the notifier run on a data dir on a 16 MiB tmpfs, and log to
 * files on it (as `npm start > data/gateway.log` would). Under load (creates, webhook changes,
 * ingest to instances with a receiver registered, reads) a filler file takes the disk's last byte.
 * Once SQLite has used up the room its files already had, every write answers 0011 (HTTP 200 on
 * the public hosts, 503 on the ingest host), never another error; both processes stay up; once the
 * filler is deleted, writes succeed again without a restart, everything acknowledged (before, during
 * and after) is shown by the read operations, and every acknowledged message and ack is delivered.
 */

const TMPFS_SIZE = '16m';
const BEFORE_MS = 3000;
/** How long writes must go on being refused once they all are. */
const FULL_MS = 5000;
const SLACK_BOUND_MS = 30_000;
const RECOVERY_BOUND_MS = 30_000;
const AFTER_MS = 3000;
const DELIVERY_INSTANCES = 3;
const CHURN_WORKERS = 3;
const INTERNAL_TOKEN = 'reliability-internal-token-0123456789';
const common = {
  INTERNAL_TOKEN,
  SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
  READ_MODEL_WAIT_MS: '2000',
};
const notifierEnv = { ...common, RETRY_SCHEDULE: '0.2,0.5,1,1,1,1,1', DELIVERY_TIMEOUT_MS: '2000' };

const unavailable = tmpfsUnavailableReason();
if (unavailable) process.stdout.write(`[disk-full] SKIPPED: ${unavailable}\n`);
const describeWithTmpfs = unavailable ? describe.skip : describe;

/** How often each warning or error was logged, by message and error code. */
function logSummary(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of output.split('\n')) {
    const entry = /"level":"(warn|error)"/.test(line) ? line.match(/"msg":"([^"]*)"/)?.[1] : undefined;
    if (entry === undefined) continue;
    const key = `${entry} ${line.match(/\((SQLITE_[A-Z_]+)\)/)?.[1] ?? line.match(/"name":"(\w+)"/)?.[1] ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describeWithTmpfs('disk full under load (a 16 MiB tmpfs filled to the last byte)', () => {
  const random = seededRandom(seedFor('disk-full', 8_000_011));
  const receiver = new ChaosReceiver(() => ({ kind: 'ok', delayMs: 0 }));
  let dataDir: string | undefined;
  let api: FileLoggedProcess | undefined;
  let notifier: FileLoggedProcess | undefined;
  let load: DiskFullLoad;
  let pids: Array<number | undefined> = [];
  let account: { email: string; apikey: string };
  const filler = () => join(dataDir!, 'filler');

  beforeAll(async () => {
    dataDir = mountTmpfs(TMPFS_SIZE);
    await receiver.start();
    account = createAccount(dataDir, 'diskfull@example.com', common);
    api = new FileLoggedProcess('api', dataDir, join(dataDir, 'api.log'), common);
    await api.start();
    notifier = new FileLoggedProcess('notifier', dataDir, join(dataDir, 'notifier.log'), notifierEnv);
    await notifier.start();
    pids = [api.pid, notifier.pid];
    const delivery: DeliveryInstance[] = [];
    for (let i = 0; i < DELIVERY_INSTANCES; i++) {
      const created = expectSuccess(
        await get(api.url('account'), '/newInstance', {
          email: account.email,
          token: account.apikey,
          packageid: 'monthly',
        }),
      );
      const path = `/delivery-${i}`;
      expectSuccess(
        await postJson(api.url('instance'), '/webhook', {
          instanceid: created.instanceid,
          token: created.token,
          webhookUrl: receiver.url(path),
        }),
      );
      delivery.push({ instanceid: created.instanceid, token: created.token, path, messages: [], acks: [] });
    }
    const urls = { account: api.url('account'), instance: api.url('instance'), internal: api.url('internal') };
    load = new DiskFullLoad(urls, account, INTERNAL_TOKEN, receiver, delivery, random);
  }, 120_000);

  afterAll(async () => {
    await load?.stop();
    if (dataDir) rmSync(filler(), { force: true });
    await notifier?.stop();
    await api?.stop();
    await receiver.stop();
    if (dataDir) unmountTmpfs(dataDir);
  });

  const inPhase = (phase: Phase, kinds: readonly Outcome['kind'][] = WRITE_KINDS) =>
    load.outcomes.filter((o) => o.phase === phase && kinds.includes(o.kind));
  const tally = (outcomes: Outcome[]) => {
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[`${o.kind}:${o.result}`] = (counts[`${o.kind}:${o.result}`] ?? 0) + 1;
    return JSON.stringify(counts);
  };
  /** Fails at once, with the end of its log, when either process has exited. */
  const alive = () => {
    for (const app of [api!, notifier!]) {
      if (!app.running) throw new Error(`the ${app.app} exited; its log ends with:\n${app.output.slice(-3000)}`);
    }
    return true;
  };
  const allRefused = (outcomes: Outcome[]) => outcomes.length > 0 && outcomes.every((o) => o.result === 'unavailable');

  it('answers 0011 while the disk is full, recovers by itself, and loses nothing acknowledged', async () => {
    const t = { full: 0, refused: 0, freed: 0, recovered: 0 };
    const recovered: Record<string, number> = {};
    load.start(CHURN_WORKERS);
    try {
      await sleep(BEFORE_MS);
      const filled = fillDisk(filler());
      t.full = Date.now();
      load.phase = 'full';
      process.stdout.write(`[disk-full] filled ${filled} bytes; ${freeBytes(dataDir!)} bytes left\n`);
      // SQLite first fills the room its files already have (a WAL restarted after a checkpoint).
      await until('every write refused', () => alive() && allRefused(inPhase('full').slice(-30)), SLACK_BOUND_MS, 50);
      t.refused = Date.now();
      await sleep(FULL_MS);

      rmSync(filler());
      t.freed = Date.now();
      load.phase = 'freed';
      const firstSuccesses = () => {
        alive();
        for (const o of inPhase('freed')) if (o.result === 'ok') recovered[o.kind] ??= o.at - t.freed;
        return WRITE_KINDS.every((k) => recovered[k] !== undefined);
      };
      await until(
        'a success of every kind of write after the filler was deleted',
        firstSuccesses,
        RECOVERY_BOUND_MS,
        100,
      );
      t.recovered = Date.now();
      await sleep(AFTER_MS);
    } finally {
      await load.stop();
      rmSync(filler(), { force: true });
      for (const phase of ['before', 'full', 'freed'] as const) {
        process.stdout.write(
          `[disk-full] ${phase}: writes ${tally(inPhase(phase))}, reads ${tally(inPhase(phase, ['list', 'status']))}\n`,
        );
      }
      process.stdout.write(
        `[disk-full] writes acknowledged for ${t.refused ? t.refused - t.full : '?'} ms after filling; first success after freeing (ms): ${JSON.stringify(recovered)}\n`,
      );
      for (const app of [api!, notifier!])
        process.stdout.write(`[disk-full] ${app.app} warnings and errors: ${JSON.stringify(logSummary(app.output))}\n`);
    }

    // Every answer is a success or 0011 (with the host's status), in every phase: no 5xx, no other code.
    const problems = load.outcomes.filter((o) => o.result === 'problem').map((o) => `${o.phase}: ${o.detail}`);
    expect(problems.slice(0, 10)).toEqual([]);
    // Once writes were refused, every write of every kind was, until the filler was deleted (a
    // request sent just before may reach the API just after).
    const whileFull = inPhase('full').filter((o) => o.startedAt >= t.refused && o.at < t.freed);
    for (const kind of WRITE_KINDS)
      expect({ kind, refused: whileFull.filter((o) => o.kind === kind).length > 0 }).toEqual({ kind, refused: true });
    expect(
      whileFull
        .filter((o) => o.result !== 'unavailable')
        .map((o) => `${o.kind} ${o.result} at +${o.startedAt - t.full} ms`),
    ).toEqual([]);
    // Recovered by itself: after the first successes, every write succeeds.
    const last = inPhase('freed').filter((o) => o.startedAt > t.recovered + 1000);
    expect(last.length).toBeGreaterThan(0);
    expect(last.filter((o) => o.result !== 'ok').map((o) => `${o.kind}: ${o.result} ${o.detail ?? ''}`)).toEqual([]);

    // The same processes, still running, still logging.
    expect([api!.pid, notifier!.pid]).toEqual(pids);
    expect(pids.every((pid) => pid !== undefined)).toBe(true);
    for (const url of [api!.url('account'), api!.url('instance'), api!.url('internal'), notifier!.url('notifier')]) {
      expect((await request(`${url}/healthz`)).status).toBe(200);
    }
    const loggedAfter = (output: string) =>
      output
        .split('\n')
        .some((line) => (line.match(/"time":"([^"]+)"/)?.[1] ?? '') > new Date(t.recovered).toISOString());
    expect([api!.app, loggedAfter(api!.output)]).toEqual(['api', true]);
    expect(api!.output).toMatch(/"msg":"log lines were lost: the log could not be written","dropped":\d+/);
  });

  it('shows every acknowledged create and webhook change, before, during and after', async () => {
    const answer = expectSuccess(await get(api!.url('account'), '/listInstances', account));
    const byId = new Map(
      (answer.instances as Array<{ instanceid: string; webhookUrl: string }>).map((i) => [i.instanceid, i]),
    );
    const problems: string[] = [];
    for (const instance of load.created) {
      const allowed = [instance.acked, ...instance.later];
      const row = byId.get(instance.instanceid);
      if (!row) problems.push(`${instance.instanceid}: acknowledged creation missing from listInstances`);
      else if (!allowed.includes(row.webhookUrl))
        problems.push(
          `${instance.instanceid}: listInstances webhookUrl "${row.webhookUrl}", acknowledged "${instance.acked}"`,
        );
      const status = expectSuccess(
        await postJson(api!.url('instance'), '/getWebhookStatus', {
          instanceid: instance.instanceid,
          token: instance.token,
        }),
      );
      if (!allowed.includes(status.webhookUrl))
        problems.push(
          `${instance.instanceid}: getWebhookStatus webhookUrl "${status.webhookUrl}", acknowledged "${instance.acked}"`,
        );
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(load.created.length).toBeGreaterThan(0);
  });

  it('delivers every acknowledged message and ack to the receiver', async () => {
    const missing = () => {
      const got = new Set<string>();
      for (const r of receiver.requests) {
        if (!r.delivered) continue;
        for (const m of r.json?.messages ?? []) got.add(`${r.path} message ${m.id}`);
        for (const a of r.json?.ack ?? []) got.add(`${r.path} ack ${a.id} ${a.status}`);
      }
      return load.delivery.flatMap((d) => [
        ...d.messages.map((id) => `${d.path} message ${id}`).filter((k) => !got.has(k)),
        ...d.acks.map((a) => `${d.path} ack ${a.id} ${a.status}`).filter((k) => !got.has(k)),
      ]);
    };
    await until('every acknowledged message and ack delivered', () => missing().length === 0, 60_000, 250).catch(
      () => undefined,
    );
    expect(missing().slice(0, 10)).toEqual([]);
    expect(load.delivery.every((d) => d.messages.length > 0)).toBe(true);
    expect(notifier!.output).not.toMatch(/delivery attempt failed unexpectedly|stopped following the log/);
    expect(api!.output).not.toMatch(/unexpected error/);
  });
});
