import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiProcess,
  expectSuccess,
  get,
  NotifierProcess,
  postJson,
  request,
  runOps,
  tempDataDir,
  type Answer,
} from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { ChaosReceiver } from './support/chaos-receiver';
import { sleep, until } from './support/env';
import { checkNotifications, type RecordedItem } from './support/notification-check';
import { findSecrets, type Secret } from './support/secret-scan';

/**
 * docs/api.md section 5: no API key, instance token or signing secret appears in clear in a log line,
 * the event log, a read model or an error message. A run with both processes sends the secrets
 * everywhere a client might put them (query, JSON, form, repeated, oddly encoded names, malformed
 * and oversized bodies, refused and unroutable requests), delivers signed notifications with
 * failures and retries, and kills both processes with SIGKILL; then everything they wrote is searched.
 */

const INTERNAL_TOKEN = 'secret-scan-internal-token-0123456789';
const SECRETS_KEY = randomBytes(32).toString('base64');
const common = {
  INTERNAL_TOKEN,
  SECRETS_KEY,
  ALLOW_HTTP_WEBHOOKS: 'true',
  ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  SHUTDOWN_GRACE_MS: '500',
};
const notifierEnv = { ...common, RETRY_SCHEDULE: '0.2,0.2,0.2' };
/** NOTIFICATION_BATCH_MAX is left at its default. */
const BATCH_MAX = 100;
const MESSAGES_PER_INSTANCE = 40;
type Instance = { instanceid: string; token: string };

describe('no secret in clear after a hostile run of the API and the notifier', () => {
  let api: ApiProcess;
  let notifier: NotifierProcess;
  const outputs: Record<string, string> = {};
  const attempts = new Map<string, number>();
  // The first attempt of every third notification fails, so that there are retries and failure logs to search too.
  const receiver = new ChaosReceiver((id) => {
    const n = (attempts.get(id) ?? 0) + 1;
    attempts.set(id, n);
    return n === 1 && attempts.size % 3 === 0 ? { kind: 'status', status: 500 } : { kind: 'ok', delayMs: 0 };
  });
  const secrets: Secret[] = [];
  const refusals: Array<{ what: string; answer: Answer }> = [];
  const instances: Instance[] = [];
  /** What each instance recorded, in record order (its ingests run one after the other). */
  const recorded = new Map<string, RecordedItem[]>();

  const keep = (kind: string, value: string) => secrets.push({ kind, value });
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const form = (body: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const refused = async (what: string, url: string, init?: RequestInit) => {
    const answer = await request(url, init);
    expect({ what, success: answer.json?.success }).toEqual({ what, success: false });
    refusals.push({ what, answer });
  };

  /** `accounts create` with the same environment as the apps (SECRETS_KEY included). */
  const account = (email: string): { email: string; apikey: string } => {
    const result = runOps(api.dataDir, ['accounts', 'create', '--email', email], common);
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };

  beforeAll(async () => {
    await receiver.start();
    api = await ApiProcess.start({ dataDir: tempDataDir(), env: common });
    notifier = await NotifierProcess.start(api.dataDir, notifierEnv);
    const [ann, bob] = [account('ann@example.com'), account('bob@example.com')];
    keep('API key', ann.apikey);
    keep('API key', bob.apikey);
    for (const [who, packageid] of [
      [ann, 'trial'],
      [ann, 'monthly'],
      [bob, 'annual'],
    ] as const) {
      const created = expectSuccess(
        await get(api.accountUrl, '/newInstance', { email: who.email, token: who.apikey, packageid }),
      );
      keep('instance token', created.token);
      instances.push(created);
    }
    const [a1, a2, b1] = instances;
    for (const [i, instance] of instances.entries()) {
      const registered = expectSuccess(
        await postJson(api.apiUrl, '/webhook', { ...pick(instance), webhookUrl: receiver.url(`/hook/${i}`) }),
      );
      keep('signing secret', registered.signingSecret);
    }
    // A receiver's own header (docs/api.md section 12), in the query string: its value is a secret
    // too, sent on b1's deliveries and never in clear (nor base64) in the store or the logs.
    const headerValue = `Bearer rcv-${randomBytes(18).toString('base64url')}`;
    keep('receiver header value', headerValue);
    expectSuccess(
      await get(api.apiUrl, '/webhook', {
        ...pick(b1),
        webhookUrl: receiver.url('/hook/2'),
        webhookHeaders: JSON.stringify({ Authorization: headerValue }),
      }),
    );
    // A rotation (docs/api.md 8.5), the token in the query string: its new secret signs a1's
    // deliveries first, the replaced one second, and both must stay out of the store and the logs.
    keep(
      'rotated signing secret',
      expectSuccess(await get(api.apiUrl, '/rotateSigningSecret', pick(a1))).signingSecret,
    );

    // Secrets where clients put them, in requests that are refused.
    const { accountUrl: acct, apiUrl: inst, internalUrl: ingest } = api;
    const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
    await refused(
      'wrong token in the query',
      `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: b1.token })}`,
    );
    await refused(
      'wrong token in JSON',
      `${inst}/getWebhookLogs`,
      json({ instanceid: a2.instanceid, token: a1.token }),
    );
    await refused(
      'wrong token in a form',
      `${inst}/webhook`,
      form(q({ instanceid: b1.instanceid, token: a2.token, webhookUrl: '' })),
    );
    await refused(
      'rotation with a wrong token',
      `${inst}/rotateSigningSecret`,
      json({ instanceid: a1.instanceid, token: a2.token }),
    );
    // A test notification (docs/api.md 8.6) to an instance that never registered a URL creates its
    // first secret, which signs the test; a test of a1 signs with both of its secrets.
    const untested = expectSuccess(
      await get(acct, '/newInstance', { email: ann.email, token: ann.apikey, packageid: 'trial' }),
    );
    keep('instance token', untested.token);
    expectSuccess(
      await postJson(inst, '/testWebhook', { ...pick(untested), webhookUrl: receiver.url('/test/untested') }),
    );
    keep(
      'signing secret of a test',
      expectSuccess(await postJson(inst, '/getWebhookStatus', pick(untested))).signingSecret,
    );
    expectSuccess(await get(inst, '/testWebhook', { ...pick(a1), webhookUrl: receiver.url('/test/a1') }));
    await refused(
      'testWebhook with a wrong token',
      `${inst}/testWebhook`,
      json({ instanceid: a1.instanceid, token: a2.token, webhookUrl: receiver.url('/test/x') }),
    );
    await refused(
      'repeated token in the query',
      `${inst}/getWebhookStatus?instanceid=${a1.instanceid}&token=${a1.token}&token=${b1.token}`,
    );
    await refused(
      'repeated token in a form',
      `${inst}/getWebhookStatus`,
      form(`instanceid=${a1.instanceid}&token=${a1.token}&token=${a1.token}`),
    );
    await refused(
      'repeated token in JSON',
      `${inst}/getWebhookStatus`,
      json(`{"instanceid":"${a1.instanceid}","token":"${a1.token}","token":"${a2.token}"}`),
    );
    await refused(
      'token as an array',
      `${inst}/getWebhookStatus`,
      json({ instanceid: a1.instanceid, token: [a1.token, b1.token] }),
    );
    await refused(
      'token as an object',
      `${inst}/getWebhookStatus`,
      json({ instanceid: a1.instanceid, token: { token: a1.token } }),
    );
    await refused(
      'token with a control character',
      `${inst}/getWebhookStatus`,
      json({ instanceid: a1.instanceid, token: `${a1.token}\u0000` }),
    );
    await refused(
      'token too long',
      `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: a1.token.repeat(30) })}`,
    );
    await refused(
      'malformed JSON with a token',
      `${inst}/webhook`,
      json(`{"instanceid":"${a1.instanceid}","token":"${a1.token}","webhookUrl":`),
    );
    await refused(
      'malformed form with a token',
      `${inst}/webhook`,
      form(`token=${a1.token}%zz&instanceid=${a1.instanceid}`),
    );
    await refused(
      'oversized body with a token',
      `${inst}/webhook`,
      json({ instanceid: a1.instanceid, token: a1.token, webhookUrl: `https://8.8.8.8/${'a'.repeat(70_000)}` }),
    );
    await refused('unsupported content type', `${inst}/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: `token=${a1.token}`,
    });
    await refused(
      'encoded parameter names',
      `${inst}/getWebhookStatus?instanceid=${a1.instanceid}&tok%65n=${b1.token}&TOKEN=${a2.token}`,
    );
    await refused('wrong API key', `${acct}/listInstances?${q({ email: ann.email, apikey: bob.apikey })}`);
    await refused(
      'API key of another account on newInstance',
      `${acct}/newInstance?${q({ email: bob.email, token: ann.apikey, packageid: 'trial' })}`,
    );
    await refused(
      'API key with a control character',
      `${acct}/listInstances?${q({ email: ann.email, apikey: `${ann.apikey}\u0001` })}`,
    );
    await refused(
      'repeated API key',
      `${acct}/listInstances?email=${ann.email}&apikey=${ann.apikey}&apikey=${ann.apikey}`,
    );
    await refused(
      'unknown package with a right key',
      `${acct}/renewInstance?${q({ email: ann.email, apikey: ann.apikey, instanceid: a1.instanceid, packageid: 'x' })}`,
    );
    await refused(
      'unknown operation with secrets',
      `${acct}/deleteAccount?${q({ email: ann.email, apikey: ann.apikey, token: a1.token })}`,
    );
    await refused(
      'wrong method with secrets',
      `${inst}/getWebhookStatus?${q({ instanceid: a1.instanceid, token: a1.token })}`,
      { method: 'PUT' },
    );
    await refused('ingest with an API key as bearer', `${ingest}/instances/${a1.instanceid}/messages`, {
      ...json({ id: 'x', chatId: 'c', time: 1 }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.apikey}` },
    });
    await refused('ingest with a token in the body', `${ingest}/instances/${a1.instanceid}/messages`, {
      ...json({ id: 'x', chatId: 'c', time: 'soon', token: a1.token, apikey: ann.apikey }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
    });

    // Secrets in successful requests too: the body's value wins over a wrong one in the query.
    expectSuccess(await request(`${inst}/getWebhookStatus?${q({ token: b1.token })}`, json(pick(a1))));
    expectSuccess(await get(acct, '/listInstances', { email: ann.email, apikey: ann.apikey }));
    expectSuccess(
      await get(acct, '/renewInstance', {
        email: bob.email,
        apikey: bob.apikey,
        instanceid: b1.instanceid,
        packageid: 'monthly',
      }),
    );

    // Self-service (docs/api.md 8.1 to 8.3): the tokens and keys it issues, in answers and by the
    // operator CLI, and the ones it retires, must stay out of the store and the logs too.
    const doomed = expectSuccess(
      await get(acct, '/newInstance', { email: ann.email, token: ann.apikey, packageid: 'trial' }),
    );
    keep('instance token', doomed.token);
    await refused(
      'deleteInstance with a wrong key',
      `${acct}/deleteInstance?${q({ email: ann.email, apikey: bob.apikey, instanceid: doomed.instanceid })}`,
    );
    expectSuccess(
      await get(acct, '/deleteInstance', { email: ann.email, apikey: ann.apikey, instanceid: doomed.instanceid }),
    );
    await refused('the token of a deleted instance', `${inst}/getWebhookStatus`, json(pick(doomed)));
    await refused(
      'resetInstanceToken with a wrong key',
      `${acct}/resetInstanceToken?${q({ email: bob.email, apikey: ann.apikey, instanceid: b1.instanceid })}`,
    );
    keep(
      'reset instance token',
      expectSuccess(
        await get(acct, '/resetInstanceToken', { email: ann.email, apikey: ann.apikey, instanceid: a2.instanceid }),
      ).token,
    );
    await refused('a token replaced by a reset', `${inst}/getWebhookLogs?${q(pick(a2))}`);
    keep(
      'reset API key',
      expectSuccess(await get(acct, '/resetApiKey', { email: bob.email, apikey: bob.apikey })).apikey,
    );
    await refused(
      'an API key replaced by a reset',
      `${acct}/resetApiKey?${q({ email: bob.email, apikey: bob.apikey })}`,
    );
    const operatorReset = runOps(api.dataDir, ['accounts', 'reset-key', '--email', ann.email], common);
    expect(operatorReset.status).toBe(0);
    keep('reset API key', JSON.parse(operatorReset.stdout).apikey);

    // Signed deliveries with failures and retries, across a SIGKILL of each process.
    const ingestMessages = (from: number, to: number) =>
      Promise.all(
        instances.map(async (instance) => {
          for (let k = from; k <= to; k++) {
            const answer = await request(`${api.internalUrl}/instances/${instance.instanceid}/messages`, {
              ...json({ id: `m-${k}`, chatId: 'c@c.us', time: 1_700_000_000 + k, body: `message ${k}` }),
              headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
            });
            expect(answer.status).toBe(202);
            recorded.set(instance.instanceid, [
              ...(recorded.get(instance.instanceid) ?? []),
              { kind: 'message', id: `m-${k}`, body: `message ${k}` },
            ]);
          }
        }),
      );
    await ingestMessages(1, 20);
    await api.stop('SIGKILL');
    outputs['API output (1st process)'] = api.output;
    await api.start();
    await notifier.stop('SIGKILL');
    outputs['notifier output (1st process)'] = notifier.output;
    notifier = await NotifierProcess.start(api.dataDir, notifierEnv);
    await ingestMessages(21, MESSAGES_PER_INSTANCE);
    // Notifications may batch several messages (docs/api.md section 6): count the messages they carried.
    await until(
      'every message delivered',
      () => receiver.deliveredItems >= instances.length * MESSAGES_PER_INSTANCE,
      60_000,
    );
    await sleep(500);
  });
  afterAll(async () => {
    await notifier?.stop();
    await receiver.stop();
    await api?.stop();
    api?.removeData();
  });

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
    await notifier.stop('SIGKILL');
    await api.stop('SIGKILL');
    expect(existsSync(join(api.dataDir, 'events.sqlite-wal'))).toBe(true);
    expect(existsSync(join(api.dataDir, 'secrets.key'))).toBe(false); // SECRETS_KEY came from the environment
    const keyMaterial = [...secrets, { kind: 'SECRETS_KEY', value: SECRETS_KEY }];
    expect(findSecrets(keyMaterial, { dirs: [api.dataDir] })).toEqual([]);
    // Not vacuous: what is not secret is found in clear in the same files.
    expect(findSecrets([{ kind: 'instance id', value: instances[0].instanceid }], { dirs: [api.dataDir] })).toEqual(
      expect.arrayContaining(['events.sqlite-wal: a instance id']),
    );
    await api.start(); // the store still reads back (the ciphertext decrypts with the key from the environment)
    notifier = await NotifierProcess.start(api.dataDir, notifierEnv);
  });

  it("writes no secret to either process's output, nor to the operator CLI's event listing", async () => {
    const events = runOps(api.dataDir, ['events', 'list', '--limit', '100000'], common);
    expect(events.status).toBe(0);
    expect(events.stdout.split('\n').length).toBeGreaterThan(200);
    await notifier.stop();
    await api.stop();
    const texts = {
      ...outputs,
      'API output': api.output,
      'notifier output': notifier.output,
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

function pick(instance: Instance): Instance {
  return { instanceid: instance.instanceid, token: instance.token };
}
