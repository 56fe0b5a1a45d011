import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  ApiProcess,
  expectFailure,
  expectSuccess,
  malformedAnswers,
  recordingHttp,
  startWithExpiredInstance,
  DAY_MS,
  type ExpiredInstanceSetup,
} from '@gw/testing';
import { refused, setUp, type Instance } from './support/error-codes';

/** The error codes of docs/api.md section 3 that a body, the store or time cause (0007, 0009, 0011,
 * 0012), the way a real client would; error-codes.e2e covers the others but 0010 and 0014. */

const http = recordingHttp();
const { get, postJson, request } = http;

describe('error codes of bodies, the store and time', () => {
  let api: ApiProcess;
  let instance: Instance;
  beforeAll(async () => {
    api = await ApiProcess.start({ env: { STORE_LOCK_TIMEOUT_MS: '300' } });
    ({ instance } = await setUp(api, get));
  });
  afterAll(async () => {
    await api.stop();
    api.removeData();
  });

  const account = (path: string, params: Record<string, string>) => get(api.accountUrl, path, params);
  const status = async (i = instance) => expectSuccess(await get(api.apiUrl, '/getWebhookStatus', { ...i }));

  describe('0009: unreadable bodies', () => {
    const post = (headers: Record<string, string>, body: string | Uint8Array) =>
      request(`${api.apiUrl}/getWebhookStatus`, { method: 'POST', headers, body });
    const json = { 'content-type': 'application/json' };
    const padded = (bytes: number) =>
      JSON.stringify({ ...instance, pad: 'x'.repeat(bytes - JSON.stringify({ ...instance, pad: '' }).length) });

    it.each([
      ['malformed JSON', json, '{"instanceid": "x",'],
      ['a JSON array', json, '["instanceid", "token"]'],
      ['a JSON string', json, '"instanceid"'],
      ['text/plain', { 'content-type': 'text/plain' }, 'instanceid=x&token=y'],
      ['no content type', {}, new TextEncoder().encode('instanceid=x&token=y')],
      ['a charset of no such name', { 'content-type': 'application/json; charset=x-no-such' }, '{"token": "x"}'],
      [
        'bytes that are not UTF-16 where it is named',
        { 'content-type': 'application/json; charset=utf-16le' },
        new Uint8Array([0x7b, 0x00, 0x7d]),
      ],
      ['invalid UTF-8', json, new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d])],
      [
        'a malformed form escape',
        { 'content-type': 'application/x-www-form-urlencoded' },
        'instanceid=%E0%A4%A&token=x',
      ],
    ])('%s answers 0009 alone, and the server answers the next request', async (_kind, headers, body) => {
      expectFailure(await post(headers as Record<string, string>, body), ['0009']);
      await status();
    });

    it('reads a body in the charset its content type names', async () => {
      const params = JSON.stringify(instance);
      const utf16 = await post(
        { 'content-type': 'application/json; charset=utf-16le' },
        Buffer.from(params, 'utf16le'),
      );
      expect(expectSuccess(utf16).instanceStatus).toBe('active');
      const form = new URLSearchParams(instance as unknown as Record<string, string>).toString();
      const latin1 = await post(
        { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' },
        Buffer.from(form, 'latin1'),
      );
      expect(expectSuccess(latin1).instanceStatus).toBe('active');
      // A byte that is é in ISO-8859-1 and not UTF-8: read in the charset, it makes a wrong token
      // (0006), where a body read as UTF-8 would be unreadable (0009).
      const accented = Buffer.concat([Buffer.from(`${form}x`, 'latin1'), Buffer.from([0xe9])]);
      const wrong = await post({ 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' }, accented);
      expectFailure(wrong, ['0006']);
    });

    it('a body over 64 KiB answers 0009, one of exactly 64 KiB is read, and the server keeps answering', async () => {
      expect(expectSuccess(await post(json, padded(65_536))).instanceStatus).toBe('active');
      expectFailure(await post(json, padded(65_537)), ['0009']);
      expectFailure(await post(json, padded(200_000)), ['0009']);
      await status();
    });
  });

  it('0011: while another process holds the store’s write lock, writes answer 0011; retried later, they succeed', async () => {
    const { who, instance: mine } = await setUp(api, get);
    const create = () => account('/newInstance', { email: who.email, token: who.apikey, packageid: 'trial' });
    const db = new Database(join(api.dataDir, 'events.sqlite'));
    try {
      db.exec('BEGIN IMMEDIATE');
      expectFailure(await create(), ['0011']);
      expectFailure(await postJson(api.apiUrl, '/webhook', { ...mine, webhookUrl: 'https://8.8.8.8/locked' }), [
        '0011',
      ]);
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
    const created = expectSuccess(await create());
    const listed = expectSuccess(await account('/listInstances', { email: who.email, apikey: who.apikey }));
    expect(listed.instances.map((i: Instance) => i.instanceid)).toEqual([mine.instanceid, created.instanceid]);
    expect(await status(mine)).toMatchObject({ webhookUrl: '', enabled: false });
  });

  describe('0007: an expired instance', () => {
    let expired: ExpiredInstanceSetup;
    beforeAll(async () => {
      expired = await startWithExpiredInstance();
    });
    afterAll(() => expired.stop());
    const creds = () => ({ instanceid: expired.instance.instanceid, token: expired.instance.token });
    const hook = (params: Record<string, string>) =>
      postJson(expired.api.apiUrl, '/webhook', { ...creds(), ...params });
    const statusLater = async () => expectSuccess(await get(expired.api.apiUrl, '/getWebhookStatus', creds()));
    const listLater = async () =>
      expectSuccess(
        await get(expired.api.accountUrl, '/listInstances', { email: expired.who.email, apikey: expired.who.apikey }),
      ).instances[0];

    it('shows as expired with delivery off, and refuses every webhook change with 0007', async () => {
      const { webhookUrl } = expired;
      expect(await statusLater()).toMatchObject({ webhookUrl, enabled: false, instanceStatus: 'expired' });
      expect(await listLater()).toMatchObject({ status: 'expired', webhookEnabled: false, webhookUrl });
      await refused(hook({ webhookUrl: 'https://8.8.8.8/new' }), ['0007']);
      await refused(hook({ webhookUrl: '' }), ['0007']);
      await refused(get(expired.api.accountUrl, '/webhook', { ...creds(), webhookUrl: 'https://8.8.8.8/new' }), [
        '0007',
      ]);
      await refused(hook({ webhookUrl: 'https://10.0.0.1/new' }), ['0007', '0008']);
      await refused(hook({ token: 'wrong', webhookUrl: 'https://8.8.8.8/new' }), ['0006']);
      expect(await statusLater()).toMatchObject({ webhookUrl, instanceStatus: 'expired' });
    });

    it('renewing counts from now and brings it back: delivery is on again by itself and changes succeed', async () => {
      const { api: later, who, instance: i, offsetMs, webhookUrl } = expired;
      const before = Date.now() + offsetMs;
      const renewed = expectSuccess(
        await get(later.accountUrl, '/renewInstance', {
          email: who.email,
          apikey: who.apikey,
          instanceid: i.instanceid,
          packageid: 'trial',
        }),
      );
      const expires = Date.parse(renewed.expiresAt);
      expect(expires).toBeGreaterThanOrEqual(before + 3 * DAY_MS - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + offsetMs + 3 * DAY_MS + 1000);
      expect(expires).toBeGreaterThan(Date.parse(i.expiresAt) + 3 * DAY_MS);
      expect(await statusLater()).toMatchObject({ webhookUrl, enabled: true, instanceStatus: 'active' });
      expect(await listLater()).toMatchObject({ status: 'active', webhookEnabled: true, expiresAt: renewed.expiresAt });
      expectSuccess(await hook({ webhookUrl: 'https://8.8.8.8/renewed' }));
    });
  });

  describe('0012: concurrent changes to one instance', () => {
    // Changes to one instance that reach one API process take turns there and never conflict. Two
    // processes (replicas on one store) can still meet: both hold their changes while a third
    // connection holds the store's write lock, so each decides on the same revision; once the lock is
    // free only the first process's writes land as decided and the other's meet a real conflict.
    // (Interleaving through the DNS lookup of `localhost` is not possible: with
    // ALLOW_PRIVATE_WEBHOOK_TARGETS=true no lookup is made.)
    const replicas = async (env: Record<string, string>): Promise<[ApiProcess, ApiProcess]> => {
      const first = await ApiProcess.start({ env });
      // Each replica keeps its own read models (README, EventStoreDB); the store is the shared one.
      const second = await ApiProcess.start({
        dataDir: first.dataDir,
        env: { ...env, READ_MODEL_FILE: 'replica-read-models.sqlite' },
      });
      return [first, second];
    };
    let noRetries: [ApiProcess, ApiProcess];
    let defaultRetries: [ApiProcess, ApiProcess];
    beforeAll(async () => {
      [noRetries, defaultRetries] = await Promise.all([replicas({ CONFLICT_RETRIES: '0' }), replicas({})]);
    });
    afterAll(async () => {
      for (const [first, second] of [noRetries, defaultRetries]) {
        await second.stop();
        await first.stop().then(() => first.removeData());
      }
    });
    const burst = async ([first, second]: [ApiProcess, ApiProcess], i: Instance) => {
      const db = new Database(join(first.dataDir, 'events.sqlite'));
      db.exec('BEGIN IMMEDIATE');
      const pending = Array.from({ length: 30 }, (_, n) =>
        postJson((n % 2 ? first : second).apiUrl, '/webhook', {
          ...i,
          webhookUrl: `https://8.8.8.8/${n % 4 < 2 ? 'a' : 'b'}`,
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      db.exec('ROLLBACK');
      db.close();
      const answers = await Promise.all(pending);
      const conflicts = answers.filter((a) => a.json?.msg?.[0] === '0012');
      conflicts.forEach((a) => expectFailure(a, ['0012']));
      answers.filter((a) => !conflicts.includes(a)).forEach((a) => expect(expectSuccess(a).enabled).toBe(true));
      return conflicts.length;
    };

    it('with CONFLICT_RETRIES=0 some answers of two replicas are 0012 and all the others succeed', async () => {
      const { instance: i } = await setUp(noRetries[0], get);
      let conflicts = 0;
      for (let round = 0; round < 5 && conflicts === 0; round++) conflicts += await burst(noRetries, i);
      expect(conflicts).toBeGreaterThan(0);
      expect((await get(noRetries[0].apiUrl, '/getWebhookStatus', { ...i })).json.webhookUrl).toMatch(
        /^https:\/\/8\.8\.8\.8\/[ab]$/,
      );
    });

    it('one process alone never answers 0012, even with CONFLICT_RETRIES=0: its changes take turns', async () => {
      const { instance: i } = await setUp(noRetries[0], get);
      const alone: [ApiProcess, ApiProcess] = [noRetries[0], noRetries[0]];
      for (let round = 0; round < 3; round++) expect(await burst(alone, i)).toBe(0);
    });

    it('with the default retries the same bursts to two replicas never answer 0012', async () => {
      const { instance: i } = await setUp(defaultRetries[0], get);
      for (let round = 0; round < 3; round++) expect(await burst(defaultRetries, i)).toBe(0);
    });
  });

  it('produced every code above, and never a 5xx, HTML, an empty body or anything but a JSON envelope', () => {
    const codes = new Set(http.answers.flatMap(({ answer }) => answer.json?.msg ?? []));
    expect([...codes].sort()).toEqual(['0006', '0007', '0008', '0009', '0011', '0012']);
    expect(malformedAnswers(http.answers)).toEqual([]);
  });
});
