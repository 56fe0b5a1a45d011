import { expectFailure, expectSuccess, WebhookReceiver } from '@gw/testing';
import { loggedAttempts } from './support/delivery-fixtures';
import { LOCAL_TARGETS, sleep, Stack, until } from './support/stack';

/** docs/api.md section 6: one slow receiver holds back only its own instance; webhook targets that are
 * not publicly routable (or plain http) are refused at registration and again at connect time. */

describe('a slow receiver', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({ env: LOCAL_TARGETS });
  });
  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  });

  it("taking 10 s to answer instance A does not delay instance B, and holds back only A's next notification", async () => {
    const a = await stack.newInstance();
    const b = await stack.newInstance();
    receiver.plan('/a', [{ delayMs: 10_000 }]);
    await stack.webhook(a, receiver.url('/a'));
    await stack.webhook(b, receiver.url('/b'));

    await stack.message(a, { id: 'a-1' });
    await until("A's request", () => receiver.at('/a').length >= 1);
    const started = Date.now();
    await stack.message(a, { id: 'a-2' });
    for (const i of [1, 2, 3]) await stack.message(b, { id: `b-${i}` });
    // Alone or batched (b-2 and b-3 may travel together behind b-1), all three arrive meanwhile.
    const bIds = () => receiver.at('/b').flatMap((r) => (r.json.messages as Array<{ id: string }>).map((m) => m.id));
    await until("B's three messages", () => bIds().length >= 3, 2000);

    expect(Date.now() - started).toBeLessThan(2000);
    expect(bIds()).toEqual(['b-1', 'b-2', 'b-3']);
    expect(receiver.at('/b').map((r) => r.json.sequence)).toEqual(receiver.at('/b').map((_, i) => i + 1));
    // A's first request is still hanging, and A's second waits for it (one at a time per instance).
    expect(receiver.inFlightAt('/a')).toBe(1);
    expect(receiver.at('/a')).toHaveLength(1);
  });
});

describe('registration with the switches off (default environment)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ notifier: false });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses https URLs whose host is or resolves to a loopback, private, link-local or mapped-loopback address with 0008', async () => {
    const instance = await stack.newInstance();
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      'https://localhost:8443/hook',
    ]) {
      const answer = await stack.setWebhook(instance, url);
      try {
        expectFailure(answer, ['0008']);
      } catch (error) {
        throw new Error(`${url} was not refused with 0008: ${answer.text}\n${String(error)}`);
      }
    }
    expect(await stack.status(instance)).toMatchObject({ webhookUrl: '', enabled: false });
    // A public address is taken: the refusals above are about the address, not the form.
    expect(expectSuccess(await stack.setWebhook(instance, 'https://8.8.8.8/hook'))).toMatchObject({ enabled: true });
  });

  it('refuses a plain http URL with 0008', async () => {
    const instance = await stack.newInstance();
    expectFailure(await stack.setWebhook(instance, 'http://8.8.8.8/hook'), ['0008']);
  });
});

describe('connect-time checks: URLs the API took (switches on) but the notifier refuses (switches off)', () => {
  let stack: Stack;
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  };
  beforeAll(async () => {
    // One retry, so that refused notifications are dead-lettered quickly and stay quiet afterwards.
    stack = await Stack.start({ apiEnv: LOCAL_TARGETS, env: { RETRY_SCHEDULE: '1' }, notifier: false });
  });
  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await stack?.stop();
  });

  it('never connects to a loopback target (by name or literal) without ALLOW_PRIVATE_WEBHOOK_TARGETS, and logs status 0 "address not allowed"', async () => {
    await stack.startNotifier({ ...stack.notifierEnv });
    const target = await receiver();
    const byName = await stack.newInstance();
    const byLiteral = await stack.newInstance();
    // As if DNS had answered with a public address at registration.
    await stack.webhook(byName, target.url('/by-name', 'localhost', 'https'));
    await stack.webhook(byLiteral, target.url('/by-literal', '127.0.0.1', 'https'));
    await stack.message(byName, { id: 'ssrf-1' });
    await stack.message(byLiteral, { id: 'ssrf-2' });

    for (const instance of [byName, byLiteral]) {
      const attempts = await loggedAttempts(stack, instance, 2);
      expect(attempts.map((a) => a.status)).toEqual([0, 0]);
      for (const attempt of attempts) expect(attempt.error).toMatch(/^address not allowed/);
      expect(attempts[0].nextAttemptAt).toBeNull();
    }
    await sleep(300);
    expect(target.connections).toBe(0);
    expect(target.requests).toHaveLength(0);
  });

  it('never connects to an http:// target without ALLOW_HTTP_WEBHOOKS, even with private targets allowed', async () => {
    await stack.startNotifier({ ...stack.notifierEnv, ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' });
    const plain = await receiver();
    const control = await receiver();
    const httpInstance = await stack.newInstance();
    const httpsInstance = await stack.newInstance();
    await stack.webhook(httpInstance, plain.url('/plain'));
    // Control: the same notifier does connect to https on a private address (the plain-http
    // receiver then fails the TLS handshake), so the refusal above is the scheme's.
    await stack.webhook(httpsInstance, control.url('/control', '127.0.0.1', 'https'));
    await stack.message(httpInstance, { id: 'plain-1' });
    await stack.message(httpsInstance, { id: 'control-1' });

    const refused = await loggedAttempts(stack, httpInstance, 2);
    expect(refused.map((a) => a.status)).toEqual([0, 0]);
    for (const attempt of refused) expect(attempt.error).toMatch(/^address not allowed/);
    const tried = await loggedAttempts(stack, httpsInstance, 2);
    expect(tried.map((a) => a.status)).toEqual([0, 0]);
    for (const attempt of tried) expect(attempt.error).toMatch(/^(TLS|reset)/);

    await sleep(300);
    expect(plain.connections).toBe(0);
    expect(control.connections).toBeGreaterThan(0);
  });
});
