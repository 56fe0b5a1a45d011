import { expectSuccess, get, NotifierProcess, postJson, request, schemaProblems, WebhookReceiver } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import { INTERNAL_TOKEN, selfService } from './support/self-service';

/**
 * The instance host's `webhooks` map (docs/api.md section 12) against what a real receiver gets: every
 * kind of body the notifier and testWebhook POST (messages, an ack, both instance notices, a state
 * notice, a test),
 * each validated by an independent JSON Schema 2020-12 validator against the schema the live
 * /openapi.json names for it, closed to fields it does not name, and its headers against theirs.
 */

/** The first expiring notice of a 72 h trial instance comes 4 s after its creation. */
const NOTICE_HOURS = Number((72 - 4 / 3600).toFixed(6));

type PathItem = {
  post: {
    parameters: Array<{ name: string; schema: unknown }>;
    requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
  };
};
type Document = { webhooks: Record<string, PathItem>; components: { schemas: Record<string, unknown> } };

/** The `webhooks` entry a body belongs to, by the member only that kind has. */
const kindOf = (body: Record<string, unknown>) =>
  ['messages', 'ack', 'instance', 'state', 'test'].find((member) => member in body) ?? 'none';

describe.each(STORES)('the webhooks map against bodies POSTed to a real receiver, on %s', (_name, onEsdb) => {
  let store: ApiOnStore;
  let notifier: NotifierProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const env = {
      INTERNAL_TOKEN,
      ALLOW_HTTP_WEBHOOKS: 'true',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      SHUTDOWN_GRACE_MS: '500',
      EXPIRY_NOTICE_HOURS: String(NOTICE_HOURS),
    };
    store = await ApiOnStore.start(onEsdb, env);
    notifier = await NotifierProcess.start(store.api.dataDir, { ...env, ...store.storeEnv });
  });
  afterAll(async () => {
    await notifier?.stop();
    await store?.stop();
    await receiver?.stop();
  });

  it('describes each body the receiver got, and its headers, with the schemas of the live document', async () => {
    const client = selfService(store);
    const who = await client.newAccount();
    // With a label, which every body of the instance's sequence carries (13.1).
    const { instanceid, token } = expectSuccess(
      await get(store.api.accountUrl, '/newInstance', {
        email: who.email,
        token: who.apikey,
        packageid: 'trial',
        label: 'shop-42',
      }),
    );
    const instance = { instanceid, token };
    const hook = receiver.url('/hook');
    const events = 'messages,acks,instance,state';
    expectSuccess(await postJson(store.api.apiUrl, '/webhook', { ...instance, webhookUrl: hook, events }));
    expect((await client.ingest(instanceid, 'messages', 'm-1')).status).toBe(202);
    expect((await client.ingest(instanceid, 'acks', 'm-1')).status).toBe(202);
    const state = await request(`${store.api.internalUrl}/instances/${instanceid}/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${INTERNAL_TOKEN}` },
      body: JSON.stringify({ state: 'qr', time: Math.floor(Date.now() / 1000) }),
    });
    expect(state.status).toBe(202);
    const kinds = () => receiver.requests.filter((r) => r.delivered).map((r) => kindOf(r.json));
    await until(() => ['messages', 'ack', 'instance', 'state'].every((kind) => kinds().includes(kind)));
    expectSuccess(await client.renew(who, instance.instanceid));
    await until(() => kinds().filter((kind) => kind === 'instance').length >= 2);
    expectSuccess(await get(store.api.apiUrl, '/testWebhook', { ...instance }));

    const document = (await request(`${store.api.apiUrl}/openapi.json`)).json as Document;
    const bodies = receiver.requests.filter((r) => r.json?.instanceId === instance.instanceid);
    expect(new Set(bodies.map((r) => kindOf(r.json)))).toEqual(
      new Set(['messages', 'ack', 'instance', 'state', 'test']),
    );
    expect(bodies.filter((r) => !('test' in r.json)).every((r) => r.json.label === 'shop-42')).toBe(true);
    expect(new Set(bodies.filter((r) => 'instance' in r.json).map((r) => r.json.instance.event))).toEqual(
      new Set(['expiring', 'renewed']),
    );
    for (const r of bodies) {
      const { post } = document.webhooks[kindOf(r.json)];
      const name = post.requestBody.content['application/json'].schema.$ref.split('/').pop()!;
      // The bytes as received, parsed: what the receiver verifies and reads.
      const body = JSON.parse(r.rawBody);
      expect({ body, problems: schemaProblems(document.components.schemas[name], body) }).toEqual({
        body,
        problems: [],
      });
      for (const header of post.parameters) {
        const value = r.headers[header.name];
        expect({ header: header.name, problems: schemaProblems(header.schema, value) }).toEqual({
          header: header.name,
          problems: [],
        });
      }
    }
  });
});

async function until(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the notifications');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
