import {
  ApiProcess,
  WebhookReceiver,
  createAccount,
  expectFailure,
  expectSuccess,
  get,
  postJson,
  type Answer,
} from '@gw/testing';

// docs/api.md 8.6, the ceiling on tests (CONTRACT section 11): one testWebhook per instance in
// flight, TEST_WEBHOOK_CONCURRENCY in the API; a call over either answers 0010 with Retry-After
// before any request goes out, and every request that went out is in getWebhookLogs.
// A real API process and a real receiver that never answers within the delivery timeout.

// Long enough that all 40 calls of a burst arrive while the first tests still hang, on a busy machine.
const DELIVERY_TIMEOUT_MS = 5000;
const HANG = { kind: 'timeout' as const, delayMs: 60_000 };

interface Instance {
  instanceid: string;
  token: string;
}

describe('the ceiling on testWebhook', () => {
  let api: ApiProcess;
  let receiver: WebhookReceiver;

  const start = async (env: Record<string, string> = {}) => {
    api = await ApiProcess.start({
      env: {
        ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
        ALLOW_HTTP_WEBHOOKS: 'true',
        DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
        ...env,
      },
    });
    receiver = await WebhookReceiver.start({ choose: () => HANG });
    const owner = createAccount(api.dataDir, 'tester@example.com');
    return async (): Promise<Instance> =>
      expectSuccess(
        await get(api.accountUrl, '/newInstance', { email: owner.email, token: owner.apikey, packageid: 'trial' }),
      );
  };

  afterEach(async () => {
    await receiver.stop();
    await api.stop();
    api.removeData();
  });

  const testWebhook = (instance: Instance, path: string) =>
    postJson(api.apiUrl, '/testWebhook', {
      instanceid: instance.instanceid,
      token: instance.token,
      webhookUrl: receiver.url(path),
    });

  const loggedTests = async (
    instance: Instance,
  ): Promise<Array<{ webhookId: string; test: boolean; status: number; error: string }>> => {
    const { attempts } = expectSuccess(await postJson(api.apiUrl, '/getWebhookLogs', { ...instance, limit: 100 }));
    return attempts.filter((a: { test: boolean }) => a.test);
  };

  const expectRefusedForNow = (answer: Answer) => {
    expectFailure(answer, ['0010']);
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= Math.ceil(DELIVERY_TIMEOUT_MS / 1000) + 1,
    ).toBe(true);
  };

  it('lets one test per instance out at a time, and refuses the others before they go out', async () => {
    const newInstance = await start();
    const [busy, other] = [await newInstance(), await newInstance()];
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => testWebhook(busy, `/busy/${i}`)),
      testWebhook(other, '/other'),
    ]);

    const sent = answers.slice(0, 5).filter((a) => a.json?.success === true);
    expect(sent).toHaveLength(1);
    expect(sent[0].json).toMatchObject({ delivered: false, status: 0, error: expect.stringMatching(/^timeout/) });
    for (const answer of answers.slice(0, 5).filter((a) => a.json?.success !== true)) expectRefusedForNow(answer);
    // Another instance's test is not held back by this one's.
    expect(expectSuccess(answers[5])).toMatchObject({ delivered: false, status: 0 });

    const busyRequests = receiver.requests.filter((r) => r.path.startsWith('/busy/'));
    expect(busyRequests).toHaveLength(1);
    expect((await loggedTests(busy)).map((a) => a.webhookId)).toEqual([busyRequests[0].webhookId]);
    // Once it is over, the instance may test again.
    expect(expectSuccess(await testWebhook(busy, '/busy/again'))).toMatchObject({ delivered: false });
  });

  it('has at most TEST_WEBHOOK_CONCURRENCY tests in flight: 40 at once to a hanging receiver, 4 go out', async () => {
    const newInstance = await start({ TEST_WEBHOOK_CONCURRENCY: '4' });
    const instances: Instance[] = [];
    for (let i = 0; i < 10; i++) instances.push(await newInstance());
    // Four calls for each of ten instances, all at once.
    const calls = instances.flatMap((instance, i) =>
      Array.from({ length: 4 }, (_, n) => ({ instance, path: `/i${i}/n${n}` })),
    );
    const answers = await Promise.all(calls.map(({ instance, path }) => testWebhook(instance, path)));

    const went = calls.filter((_, i) => answers[i].json?.success === true);
    expect(went).toHaveLength(4);
    // At most one per instance among them.
    expect(new Set(went.map((c) => c.instance.instanceid)).size).toBe(4);
    answers.filter((a) => a.json?.success !== true).forEach(expectRefusedForNow);
    // The receiver saw exactly the four that went out, and nothing for a refused call.
    expect(receiver.requests.map((r) => r.path).sort()).toEqual(went.map((c) => c.path).sort());

    // Every request that went out is in getWebhookLogs, under its own instance; nothing else is.
    for (const instance of instances) {
      const seen = receiver.requests.filter((r) => r.json?.instanceId === instance.instanceid).map((r) => r.webhookId);
      const logged = await loggedTests(instance);
      expect(logged.map((a) => a.webhookId)).toEqual(seen);
      for (const attempt of logged)
        expect(attempt).toMatchObject({ status: 0, error: expect.stringMatching(/^timeout/) });
    }
  });
});
