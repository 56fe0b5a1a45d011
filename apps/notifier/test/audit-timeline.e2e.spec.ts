import { startEsdbTestServer, type EsdbTestServer } from '@gw/esdb-test-server';
import { runOpsAsync, WebhookReceiver } from '@gw/testing';
import { loggedAttempts, subscribed } from './support/delivery-fixtures';
import { STORES } from './support/on-store';
import { LOCAL_TARGETS, Stack, until, type Instance } from './support/stack';

/** `ops audit timeline` (docs/api.md 9.1) end to end: the built API, notifier and operator CLI as
 * processes, on a history written through the API and the ingest host. */

type Entry = { at: string; stream: string; position: string; type: string; data: Record<string, unknown> };

describe.each(STORES)('ops audit timeline on %s', (_name, onEsdb) => {
  let receiver: WebhookReceiver;
  let server: EsdbTestServer | undefined;
  let stack: Stack;
  let instance: Instance;
  let other: Instance;
  let url: string;
  /** What no output may contain: tokens, the account's key, the signing secret. */
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    server = onEsdb ? await startEsdbTestServer({ port: 0 }) : undefined;
    const store: Record<string, string> = server
      ? { EVENT_STORE: server.connectionString, SECRETS_KEY: 'cd'.repeat(32) }
      : {};
    stack = await Stack.start({ env: { ...LOCAL_TARGETS, ...store }, freshNotifierDisk: onEsdb });
    const hooked = await subscribed(stack, receiver);
    instance = hooked.instance;
    url = hooked.url;
    secrets.push(instance.token, hooked.secret);
    await stack.message(instance, {
      id: 'tl-1',
      body: 'Meet at noon',
      senderName: 'Ann Example',
      from: '4915100000001@c.us',
      chatId: '4915100000001@c.us',
    });
    await stack.ack(instance, { id: 'tl-1', chatId: '4915100000001@c.us', status: 'read', time: 1_700_000_002 });
    await until('both notifications', () => receiver.at(hooked.path).length >= 2);
    await loggedAttempts(stack, instance, 2);
    await stack.renew(instance);
    other = await stack.newInstance();
    secrets.push(other.token);
  }, 120_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await server?.stop();
  });

  const timeline = async (...args: string[]) => {
    const result = await runOpsAsync(stack.dataDir, ['audit', 'timeline', ...args], stack.apiEnv);
    for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
    // No hash and no sealed value either: token and key hashes, sealed secrets, keys and fields.
    expect(result.stdout).not.toMatch(/sha256:|"v1\.|pd[12]\.|whsec_/);
    return result;
  };
  const entries = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry);

  it("prints an instance's history oldest first, with the facts of each event", async () => {
    const { status, stdout, stderr } = await timeline('--instance', instance.instanceid, '--json');
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const lines = entries(stdout);
    const positions = lines.map((line) => BigInt(line.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const types = lines.map((line) => line.type);
    expect(types[0]).toBe('InstanceCreated');
    for (const type of [
      'SigningSecretIssued',
      'WebhookSet',
      'MessageReceived',
      'AckReceived',
      'NotificationCreated',
      'NotificationDelivered',
      'InstanceRenewed',
    ]) {
      expect(types).toContain(type);
    }
    const of = (type: string) => lines.find((line) => line.type === type)!;
    expect(of('InstanceCreated').data).toMatchObject({ instanceid: instance.instanceid, package: 'trial' });
    expect(of('InstanceCreated').stream).toBe(`instance-${instance.instanceid}`);
    expect(of('WebhookSet').data).toMatchObject({ url });
    expect(of('MessageReceived').data).toMatchObject({
      id: 'tl-1',
      body: 'Meet at noon',
      senderName: 'Ann Example',
      from: '4915100000001@c.us',
    });
    expect(of('AckReceived').data).toMatchObject({ id: 'tl-1', chatId: '4915100000001@c.us', status: 'read' });
    expect(of('NotificationDelivered').data).toMatchObject({ outcome: 'delivered', status: 200 });
    expect(of('InstanceRenewed').data).toMatchObject({ package: 'trial' });
    // The other instance of the account is not part of this one's history.
    expect(stdout).not.toContain(other.instanceid);
  }, 60_000);

  it('prints readable lines without --json', async () => {
    const { status, stdout } = await timeline('--instance', instance.instanceid);
    expect(status).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z InstanceCreated +instanceid=\S+ package=trial expiresAt=\S+$/);
    expect(lines.find((line) => line.includes(' MessageReceived '))).toContain('body="Meet at noon"');
  }, 60_000);

  it("interleaves an account's events with those of each of its instances", async () => {
    const { status, stdout } = await timeline('--account', stack.accountEmail.toUpperCase(), '--json');
    expect(status).toBe(0);
    const lines = entries(stdout);
    expect(lines[0]).toMatchObject({ type: 'AccountRegistered', data: { email: stack.accountEmail } });
    const created = lines.filter((line) => line.type === 'InstanceCreated').map((line) => line.data['instanceid']);
    expect(created).toEqual([instance.instanceid, other.instanceid]);
    const positions = lines.map((line) => BigInt(line.position));
    expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }, 60_000);

  it('exits 1 with a clear message for an unknown instance or account', async () => {
    const unknown = await timeline('--instance', 'no-such-instance');
    expect(unknown).toMatchObject({ status: 1, stdout: '' });
    expect(unknown.stderr).toContain('error: no instance no-such-instance');
    const nobody = await timeline('--account', 'nobody@example.com');
    expect(nobody).toMatchObject({ status: 1, stdout: '' });
    expect(nobody.stderr).toContain('error: no account for nobody@example.com');
    const neither = await timeline();
    expect(neither.status).toBe(1);
    expect(neither.stderr).toContain('--instance ID or --account EMAIL');
  }, 60_000);

  it("shows [erased] for a message's and an ack's personal fields once the instance was erased", async () => {
    const erased = await runOpsAsync(
      stack.dataDir,
      ['instances', 'erase', '--instance', instance.instanceid],
      stack.apiEnv,
    );
    expect(erased.status).toBe(0);
    const { status, stdout } = await timeline('--instance', instance.instanceid, '--json');
    expect(status).toBe(0);
    const lines = entries(stdout);
    const message = lines.find((line) => line.type === 'MessageReceived')!;
    expect(message.data).toMatchObject({
      id: 'tl-1',
      body: '[erased]',
      senderName: '[erased]',
      from: '[erased]',
      chatId: '[erased]',
    });
    expect(lines.find((line) => line.type === 'AckReceived')!.data).toMatchObject({
      id: 'tl-1',
      chatId: '[erased]',
      status: 'read',
    });
    expect(lines.at(-1)).toMatchObject({
      type: 'PersonalDataErased',
      stream: `erasure-${instance.instanceid}`,
      data: { reason: 'operator' },
    });
    expect(stdout).not.toContain('Meet at noon');
  }, 60_000);
});
