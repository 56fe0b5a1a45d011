import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, generateKeyPairSync, randomBytes, sign as signWith, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';
import { registerWith } from './support/receiver-options';
import { LOCAL_TARGETS, Stack, until } from './support/stack';

/**
 * The verifying receivers shipped in examples/receivers (Node with `standardwebhooks`, Python with
 * its standard library), run as real processes: signed requests made here by the Standard
 * Webhooks rules, and one delivery by the real notifier.
 */

const COMMANDS = {
  node: [process.execPath, join(ROOT, 'examples/receivers/node/receiver.js')],
  python: ['python3', join(ROOT, 'examples/receivers/python/receiver.py')],
} as const;

type Kind = keyof typeof COMMANDS;

interface RunningReceiver {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** `secret`: a `whsec_` secret (WEBHOOK_SECRET) or a `whpk_` public key (WEBHOOK_PUBLIC_KEY). */
async function startReceiver(kind: Kind, secret: string): Promise<RunningReceiver> {
  const [command, script] = COMMANDS[kind];
  const key = secret.startsWith('whpk_') ? { WEBHOOK_PUBLIC_KEY: secret } : { WEBHOOK_SECRET: secret };
  const child: ChildProcess = spawn(command, [script], {
    env: { PATH: process.env['PATH'], PORT: '0', HOST: '127.0.0.1', ...key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await until(
    `the ${kind} receiver to listen`,
    () => /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)?.[1],
    15_000,
  );
  return {
    url: `http://127.0.0.1:${port}/hook`,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, the key being the base64 after `whsec_`. */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const now = () => Math.floor(Date.now() / 1000);
let sent = 0;

async function post(
  url: string,
  body: string,
  headers: (id: string) => Record<string, string>,
): Promise<{ status: number; id: string }> {
  const id = `msg_test_${++sent}`;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers(id) },
    body,
  });
  await answer.arrayBuffer();
  return { status: answer.status, id };
}

describe.each(Object.keys(COMMANDS) as Kind[])('the %s example receiver', (kind) => {
  const oldSecret = newSecret();
  const rotatedSecret = newSecret();
  let onOld: RunningReceiver;
  let onRotated: RunningReceiver;
  const body = JSON.stringify({
    instanceId: 'i-1',
    sequence: 7,
    messages: [{ id: 'wamid.1', chatId: 'c@c.us', body: 'Olá' }],
  });
  const signedBy =
    (secrets: string[], timestamp = now(), signedBody = body) =>
    (id: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': secrets.map((secret) => sign(secret, id, timestamp, signedBody)).join(' '),
    });

  beforeAll(async () => {
    [onOld, onRotated] = await Promise.all([startReceiver(kind, oldSecret), startReceiver(kind, rotatedSecret)]);
  });
  afterAll(async () => {
    await Promise.all([onOld?.stop(), onRotated?.stop()]);
  });

  it('accepts a correctly signed notification and prints it', async () => {
    const { status, id } = await post(onOld.url, body, signedBy([oldSecret]));
    expect(status).toBe(204);
    // The receiver prints before it answers, but its stdout pipe and the HTTP answer race here.
    const line = await until('the printed notification', () =>
      onOld
        .stdout()
        .split('\n')
        .find((l) => l.includes(id)),
    );
    expect(JSON.parse(line)).toEqual({ webhookId: id, notification: JSON.parse(body) });
  });

  it('refuses a signature made with another secret, and a body changed after signing', async () => {
    expect((await post(onOld.url, body, signedBy([newSecret()]))).status).toBe(401);
    expect((await post(onOld.url, body.replace('Olá', 'Oi'), signedBy([oldSecret]))).status).toBe(401);
    expect(onOld.stderr()).toMatch(/rejected msg_test_\d+/);
    expect(onOld.stdout() + onOld.stderr()).not.toContain(oldSecret.slice('whsec_'.length));
  });

  it('accepts the two signatures sent after a rotation (new first, old second) with either secret', async () => {
    expect((await post(onOld.url, body, signedBy([rotatedSecret, oldSecret]))).status).toBe(204);
    expect((await post(onRotated.url, body, signedBy([rotatedSecret, oldSecret]))).status).toBe(204);
    // Each signature alone verifies only with its own secret.
    expect((await post(onOld.url, body, signedBy([rotatedSecret]))).status).toBe(401);
    expect((await post(onRotated.url, body, signedBy([oldSecret]))).status).toBe(401);
  });

  it('refuses a timestamp more than 5 minutes old or ahead, and missing headers', async () => {
    expect((await post(onOld.url, body, signedBy([oldSecret], now() - 6 * 60))).status).toBe(401);
    expect((await post(onOld.url, body, signedBy([oldSecret], now() + 6 * 60))).status).toBe(401);
    expect((await post(onOld.url, body, () => ({}))).status).toBe(401);
  });
});

/** An Ed25519 key pair as the service shows its public key: `whpk_` + base64 of the 32 raw bytes. */
function newKeyPair(): { privateKey: KeyObject; whpk: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { privateKey, whpk: `whpk_${spki.subarray(spki.length - 32).toString('base64')}` };
}

describe.each(Object.keys(COMMANDS) as Kind[])('the %s example receiver with a public key (v1a)', (kind) => {
  const old = newKeyPair();
  const rotated = newKeyPair();
  let onOld: RunningReceiver;
  let onRotated: RunningReceiver;
  const body = JSON.stringify({ instanceId: 'i-1', sequence: 8, ack: [{ id: 'wamid.1', status: 'read' }] });
  const signedBy =
    (keys: KeyObject[], timestamp = now(), signedBody = body) =>
    (id: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': keys
        .map((k) => `v1a,${signWith(null, Buffer.from(`${id}.${timestamp}.${signedBody}`), k).toString('base64')}`)
        .join(' '),
    });

  beforeAll(async () => {
    [onOld, onRotated] = await Promise.all([startReceiver(kind, old.whpk), startReceiver(kind, rotated.whpk)]);
  });
  afterAll(async () => {
    await Promise.all([onOld?.stop(), onRotated?.stop()]);
  });

  it('accepts a v1a signature under its public key, and refuses another key, a changed body or a stale one', async () => {
    const { status, id } = await post(onOld.url, body, signedBy([old.privateKey]));
    expect(status).toBe(204);
    await until('the printed notification', () => onOld.stdout().includes(id));
    expect((await post(onOld.url, body, signedBy([rotated.privateKey]))).status).toBe(401);
    expect((await post(onOld.url, body.replace('read', 'played'), signedBy([old.privateKey]))).status).toBe(401);
    expect((await post(onOld.url, body, signedBy([old.privateKey], now() - 6 * 60))).status).toBe(401);
  });

  it('accepts the two signatures sent after a rotation (new key first) with either public key', async () => {
    expect((await post(onOld.url, body, signedBy([rotated.privateKey, old.privateKey]))).status).toBe(204);
    expect((await post(onRotated.url, body, signedBy([rotated.privateKey, old.privateKey]))).status).toBe(204);
  });
});

describe('the Node example receiver behind the real notifier', () => {
  let stack: Stack;
  let receiver: RunningReceiver | undefined;

  beforeAll(async () => (stack = await Stack.start({ env: LOCAL_TARGETS })), 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it('verifies and prints a notification the notifier delivered', async () => {
    const instance = await stack.newInstance();
    // As README's walk-through: register first (the answer carries the signing secret), then
    // start the receiver with it and register its address.
    const { signingSecret } = await stack.webhook(instance, 'http://127.0.0.1:9/not-yet');
    receiver = await startReceiver('node', signingSecret);
    expect((await stack.webhook(instance, receiver.url)).signingSecret).toBe(signingSecret);
    await stack.message(instance, { id: 'wamid.receiver-1', body: 'Hi!' });
    const line = await until('the verified notification', () => receiver!.stdout().split('\n').find(Boolean), 20_000);
    const printed = JSON.parse(line) as {
      webhookId: string;
      notification: { instanceId: string; messages: Array<{ id: string }> };
    };
    expect(printed.notification.instanceId).toBe(instance.instanceid);
    expect(printed.notification.messages.map((m) => m.id)).toEqual(['wamid.receiver-1']);
    const attempts = await until('the logged attempt', async () =>
      (await stack.logs(instance)).find((a) => a.status === 204),
    );
    expect(attempts.webhookId).toBe(printed.webhookId);
    expect(receiver.stderr()).not.toContain('rejected');
  });

  it('verifies a v1a notification with the public key alone (signatureScheme ed25519)', async () => {
    const instance = await stack.newInstance();
    const { signingPublicKey } = await registerWith(stack, instance, 'http://127.0.0.1:9/not-yet', {
      signatureScheme: 'ed25519',
    }).then((answer) => answer.json);
    const byKey = await startReceiver('node', signingPublicKey);
    try {
      expect((await stack.webhook(instance, byKey.url)).signingPublicKey).toBe(signingPublicKey);
      await stack.message(instance, { id: 'wamid.receiver-v1a' });
      const line = await until('the verified notification', () => byKey.stdout().split('\n').find(Boolean), 20_000);
      expect(JSON.parse(line).notification.messages[0].id).toBe('wamid.receiver-v1a');
      expect(byKey.stderr()).not.toContain('rejected');
    } finally {
      await byKey.stop();
    }
  });
});
