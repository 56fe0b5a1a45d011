import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { lookup } from 'node:dns/promises';
import { nonPublicReason } from '@gw/net-policy';
import {
  ApiProcess,
  appEntryArgs,
  NotifierProcess,
  createAccount,
  expectFailure,
  expectSuccess,
  fromAddress,
  get,
  postJson,
  request,
  tempDataDir,
} from '@gw/testing';

// Security review findings 4, 5, 6, 7 and 8: what the service exposes, to whom, and what it accepts.

/** Sends raw bytes and resolves with everything the server answered before it closed. */
function rawExchange(port: number, bytes: string, idleMs = 20_000): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setTimeout(idleMs, () => reject(new Error(`server kept the connection open for ${idleMs} ms`)));
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

function envelopeOf(raw: string): { status: number; json: { success: boolean; msg: string[] } } {
  const [head, body] = raw.split('\r\n\r\n');
  expect(head).toMatch(/content-type: application\/json; charset=utf-8/i);
  return { status: Number(head.split(' ')[1]), json: JSON.parse(body) };
}

/** A name the system resolver (here /etc/hosts) maps to a non-public address; not a localhost name. */
async function nonPublicHostsName(): Promise<string | undefined> {
  const names = readFileSync('/etc/hosts', 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/).slice(1))
    .flat()
    .filter((name) => name && !/(^|\.)localhost$/i.test(name) && /^[a-z0-9.-]+$/i.test(name));
  for (const name of names) {
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length > 0 && addresses.every((a) => nonPublicReason(a.address))) return name;
  }
  return undefined;
}

/** 32 different byte values: a key production accepts. */
const STRONG_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i * 5)).toString('hex');

describe('production refuses development switches and weak secrets', () => {
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, appEntryArgs('api'), {
      env: {
        PATH: process.env['PATH'],
        NODE_ENV: 'production',
        DATA_DIR: tempDataDir(),
        SECRETS_KEY: STRONG_KEY,
        INTERNAL_TOKEN: 'prod-token-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
        ...env,
      },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it.each([
    ['ALLOW_PRIVATE_WEBHOOK_TARGETS', 'true'],
    ['ALLOW_HTTP_WEBHOOKS', 'true'],
    ['DEMO_ACCOUNT', 'true'],
    ['INTERNAL_TOKEN', 'aaaaaaaaaaaaaaaa'],
    ['INTERNAL_TOKEN', 'abababababababababababababababababab'],
    ['SECRETS_KEY', '0'.repeat(64)],
    ['SECRETS_KEY', 'ab'.repeat(32)],
  ])('exits 1 naming %s=%s', (name, value) => {
    const result = start({ [name]: value });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${name}:`);
    // A refused secret is named, never repeated.
    if (name === 'INTERNAL_TOKEN' || name === 'SECRETS_KEY') expect(result.stderr).not.toContain(value);
  });

  it('makes an existing DATA_DIR private before it starts', async () => {
    const dataDir = tempDataDir();
    chmodSync(dataDir, 0o755);
    const api = new ApiProcess(dataDir, {
      NODE_ENV: 'production',
      SECRETS_KEY: STRONG_KEY,
      INTERNAL_TOKEN: 'prod-token-ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    });
    await api.start();
    try {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      await api.stop();
      api.removeData();
    }
  });

  it('exits 1 naming DATA_DIR when it cannot make it private', () => {
    const result = start({ DATA_DIR: '/proc/self/fd' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATA_DIR: /proc/self/fd cannot be made private');
  });
});

describe('listeners', () => {
  let api: ApiProcess;
  let notifier: NotifierProcess;
  const dataDir = join(tempDataDir(), 'fresh');

  beforeAll(async () => {
    api = await ApiProcess.start({ dataDir, env: { HOST: '0.0.0.0' } });
    notifier = await NotifierProcess.start(dataDir);
  });
  afterAll(async () => {
    await notifier.stop();
    await api.stop();
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('binds the ingest host and the notifier port to INTERNAL_HOST (loopback), the public hosts to HOST', async () => {
    const other = fromAddress('127.0.0.1');
    expectSuccess(await other.get(api.accountUrl.replace('127.0.0.1', '127.0.0.2'), '/healthz'));
    await expect(other.get(api.internalUrl.replace('127.0.0.1', '127.0.0.2'), '/healthz')).rejects.toThrow(
      /ECONNREFUSED/,
    );
    await expect(other.get(notifier.statusUrl.replace('127.0.0.1', '127.0.0.2'), '/healthz')).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expectSuccess(await get(api.internalUrl, '/healthz'));
    expect(api.output).toMatch(/"host":"internal","address":"127\.0\.0\.1"/);
  });

  it("answers on the notifier's port in the contract's envelopes, and closes idle connections", async () => {
    expectFailure(await request(`${notifier.statusUrl}/nowhere`), ['0013'], 404);
    const post = await request(`${notifier.statusUrl}/metrics`, { method: 'POST' });
    expectFailure(post, ['0013'], 405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const [garbage, oversized, idle] = await Promise.all([
      rawExchange(notifier.ports['notifier'], 'GET /healthz HTTP/1.1\r\nnot a header line\r\n\r\n'),
      rawExchange(
        notifier.ports['notifier'],
        `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
      rawExchange(notifier.ports['notifier'], ''),
    ]);
    expect(envelopeOf(garbage.text)).toEqual({
      status: 400,
      json: expect.objectContaining({ success: false, msg: ['0009'] }),
    });
    expect(envelopeOf(oversized.text)).toEqual({
      status: 431,
      json: expect.objectContaining({ success: false, msg: ['0009'] }),
    });
    // A connection that never sends a request is closed by the headers timeout (15 s), not kept.
    expect(idle.closedAfterMs).toBeLessThan(20_000);
  }, 30_000);

  it('lets browsers call the instance host cross-origin, and only that host', async () => {
    const preflight = await request(`${api.apiUrl}/getWebhookStatus`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://dashboard.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await postJson(api.apiUrl, '/getWebhookStatus', { instanceid: 'x' });
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect((await get(api.accountUrl, '/listInstances')).headers.get('access-control-allow-origin')).toBeNull();
    expectFailure(await request(`${api.apiUrl}/nowhere`, { method: 'OPTIONS' }), ['0013'], 404);
  });

  it('keeps DATA_DIR and every file in it private to the service user', async () => {
    const account = createAccount(dataDir, 'private@example.com');
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    expectSuccess(
      await postJson(api.apiUrl, '/webhook', {
        instanceid: instance.instanceid,
        token: instance.token,
        webhookUrl: '',
      }),
    );
    const seen: string[] = [];
    const walk = (path: string) => {
      const mode = statSync(path).mode & 0o777;
      seen.push(`${path.slice(dataDir.length) || '/'} ${mode.toString(8)}`);
      if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(dataDir);
    expect(seen.some((line) => line.includes('events.sqlite-wal'))).toBe(true);
    expect(seen.some((line) => line.includes('read-models.sqlite-shm'))).toBe(true);
    expect(seen.filter((line) => !/ [67]00$/.test(line))).toEqual([]);
  });

  it('refuses webhook URLs that point home through a trailing dot, /etc/hosts or a backslash', async () => {
    const account = createAccount(dataDir, 'hooks@example.com');
    const instance = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email: account.email, token: account.apikey, packageid: 'trial' }),
    );
    const register = (webhookUrl: string) =>
      postJson(api.apiUrl, '/webhook', { instanceid: instance.instanceid, token: instance.token, webhookUrl });
    for (const url of [
      'https://localhost./hook',
      'https://api.localhost./hook',
      'https://8.8.8.8\\@127.0.0.1/',
      'https://example.com\\hook',
    ]) {
      expectFailure(await register(url), ['0008']);
    }
    const name = await nonPublicHostsName();
    if (!name)
      throw new Error(
        '/etc/hosts names no host with a non-public address besides localhost; this check cannot run here',
      );
    expectFailure(await register(`https://${name}/hook`), ['0008']);
    expectFailure(await register(`https://${name}./hook`), ['0008']);
  });
});
