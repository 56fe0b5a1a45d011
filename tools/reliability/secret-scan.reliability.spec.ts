import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runOps } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { checkNotifications } from './support/notification-check';
import { findSecrets } from './support/secret-scan';
import { SecretScanRun } from './support/secret-scan-run';

/**
 * docs/api.md section 5: no API key, instance token or signing secret appears in clear in a log line,
 * the event log, a read model or an error message. The run (support/secret-scan-run.ts) sends the
 * secrets everywhere a client might put them, delivers signed notifications with failures and
 * retries, and kills both processes with SIGKILL; then everything they wrote is searched. The checks
 * share that one run: it takes a minute, and the last two stop the processes in turn.
 */

/** NOTIFICATION_BATCH_MAX is left at its default. */
const BATCH_MAX = 100;
const { INTERNAL_TOKEN, SECRETS_KEY, MESSAGES_PER_INSTANCE, env: common } = SecretScanRun;

describe('no secret in clear after a hostile run of the API and the notifier', () => {
  const run = new SecretScanRun();
  const { secrets, refusals, instances, recorded, outputs, receiver } = run;

  beforeAll(() => run.play());
  afterAll(() => run.stop());

  it("issues 2 API keys and 2 more by resets, 5 instance tokens and 1 more by a reset, 3 signing secrets plus a rotated one and one made by a test, a receiver's header value, and signs every delivery with the instance's secrets", () => {
    expect(secrets.map((s) => s.kind).sort()).toEqual([
      'API key',
      'API key',
      'instance token',
      'instance token',
      'instance token',
      'instance token',
      'instance token',
      'receiver header value',
      'reset API key',
      'reset API key',
      'reset instance token',
      'rotated signing secret',
      'signing secret',
      'signing secret',
      'signing secret',
      'signing secret of a test',
    ]);
    // The test notifications (docs/api.md 8.6): each signed with its instance's secrets.
    const [untestedSecret, rotatedSecret] = ['signing secret of a test', 'rotated signing secret'].map(
      (kind) => new Webhook(secrets.find((s) => s.kind === kind)!.value),
    );
    const [toUntested, toA1Test] = ['/test/untested', '/test/a1'].map((path) =>
      receiver.requests.filter((r) => r.path === path),
    );
    expect([toUntested.length, toA1Test.length]).toEqual([1, 1]);
    expect(
      toUntested.every(
        (r) =>
          r.webhookId.startsWith('test_') && verifies(untestedSecret, r.rawBody, r.headers as Record<string, string>),
      ),
    ).toBe(true);
    expect(toA1Test.every((r) => verifies(rotatedSecret, r.rawBody, r.headers as Record<string, string>))).toBe(true);
    // Failures and retries are included, so that their logs are searched too: some first attempts
    // were answered 500 and retried (more requests than notifications), whatever the batching.
    expect(receiver.requests.filter((r) => r.behaviour.kind === 'status').length).toBeGreaterThan(0);
    expect(receiver.requests.length).toBeGreaterThan(receiver.deliveredIds.size);
    const signing = secrets.filter((s) => s.kind === 'signing secret').map((s) => new Webhook(s.value));
    const unsigned = receiver.requests
      .filter((r) => r.path.startsWith('/hook/'))
      .filter((r) => {
        try {
          signing[Number(r.path.split('/').pop())].verify(r.rawBody, r.headers as Record<string, string>);
          return false;
        } catch {
          return true;
        }
      });
    expect(unsigned).toHaveLength(0);
    // a1 was rotated before any traffic: its new secret alone verifies each of its deliveries too.
    const rotated = new Webhook(secrets.find((s) => s.kind === 'rotated signing secret')!.value);
    const toA1 = receiver.requests.filter((r) => r.path === '/hook/0');
    expect(toA1.length).toBeGreaterThan(0);
    expect(toA1.filter((r) => String(r.headers['webhook-signature']).split(' ').length !== 2)).toEqual([]);
    expect(toA1.filter((r) => !verifies(rotated, r.rawBody, r.headers as Record<string, string>))).toEqual([]);
  });

  it('delivers every message once in sequence order across the SIGKILLs, batched or not', () => {
    const checked = instances.map((instance, i) => ({
      instanceid: instance.instanceid,
      path: `/hook/${i}`,
      recorded: recorded.get(instance.instanceid) ?? [],
    }));
    expect(checked.map((c) => c.recorded.length)).toEqual(instances.map(() => MESSAGES_PER_INSTANCE));
    // The test notifications (docs/api.md 8.6) went to /test/ paths and are no notifications.
    const notifications = receiver.requests.filter((r) => r.path.startsWith('/hook/'));
    const { problems, figures } = checkNotifications(notifications, checked, BATCH_MAX);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(figures.items).toBe(instances.length * MESSAGES_PER_INSTANCE);
  });

  it('never echoes a secret in a refusal', () => {
    expect(refusals.length).toBeGreaterThanOrEqual(24);
    const leaks = refusals
      .filter(({ answer }) => findSecrets(secrets, { texts: { answer: answer.text } }).length > 0)
      .map((r) => r.what);
    expect(leaks).toEqual([]);
  });

  it('keeps no secret in clear in the event store or the read models after SIGKILL, WAL included', async () => {
    await run.notifier.stop('SIGKILL');
    await run.api.stop('SIGKILL');
    expect(existsSync(join(run.api.dataDir, 'events.sqlite-wal'))).toBe(true);
    expect(existsSync(join(run.api.dataDir, 'secrets.key'))).toBe(false); // SECRETS_KEY came from the environment
    const keyMaterial = [...secrets, { kind: 'SECRETS_KEY', value: SECRETS_KEY }];
    expect(findSecrets(keyMaterial, { dirs: [run.api.dataDir] })).toEqual([]);
    // Not vacuous: what is not secret is found in clear in the same files.
    expect(findSecrets([{ kind: 'instance id', value: instances[0].instanceid }], { dirs: [run.api.dataDir] })).toEqual(
      expect.arrayContaining(['events.sqlite-wal: a instance id']),
    );
    await run.api.start(); // the store still reads back (the ciphertext decrypts with the key from the environment)
    run.notifier = await run.startNotifier();
  });

  it("writes no secret to either process's output, nor to the operator CLI's event listing", async () => {
    const events = runOps(run.api.dataDir, ['events', 'list', '--limit', '100000'], common);
    expect(events.status).toBe(0);
    expect(events.stdout.split('\n').length).toBeGreaterThan(200);
    await run.notifier.stop();
    await run.api.stop();
    const texts = {
      ...outputs,
      'API output': run.api.output,
      'notifier output': run.notifier.output,
      'ops events list': events.stdout + events.stderr,
    };
    expect(texts['API output']).toContain('[REDACTED]');
    const keyMaterial = [
      ...secrets,
      { kind: 'SECRETS_KEY', value: SECRETS_KEY },
      { kind: 'INTERNAL_TOKEN', value: INTERNAL_TOKEN },
    ];
    expect(findSecrets(keyMaterial, { texts })).toEqual([]);
  });
});

function verifies(webhook: Webhook, body: string, headers: Record<string, string>): boolean {
  try {
    webhook.verify(body, headers);
    return true;
  } catch {
    return false;
  }
}
