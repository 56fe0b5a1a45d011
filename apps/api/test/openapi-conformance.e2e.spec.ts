import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { get, NotifierProcess, postJson, request, WebhookReceiver } from '@gw/testing';
import { ApiOnStore } from './support/api-on-store';
import type { Document, Schema } from './support/openapi-document';
import { INTERNAL_TOKEN, selfService, type Account, type Instance } from './support/self-service';

/**
 * Every documented route against the live hosts: each operation's real success and real refusal
 * validated against the document's own schemas by an independent JSON Schema 2020-12 validator (the
 * dialect of OpenAPI 3.1), and every documented path and method answered by the router.
 */
describe('the API descriptions against the live service', () => {
  let store: ApiOnStore;
  let notifier: NotifierProcess;
  let receiver: WebhookReceiver;
  const documents: Record<string, Document> = {};
  const validators: Record<string, Ajv2020> = {};
  const base = (host: string) => (host === 'account' ? store.api.accountUrl : store.api.apiUrl);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Local plain-http receivers allowed, so that testWebhook delivers; no failure budget, so that
    // the refusals and the routing probes below are all answered as such.
    const env = {
      INTERNAL_TOKEN,
      ALLOW_HTTP_WEBHOOKS: 'true',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      SHUTDOWN_GRACE_MS: '500',
    };
    store = await ApiOnStore.start(false, { ...env, RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0' });
    // The notifier makes notifications of what the ingest host records, and delivers them.
    notifier = await NotifierProcess.start(store.api.dataDir, env);
    for (const host of ['account', 'instance']) {
      documents[host] = (await request(`${base(host)}/openapi.json`)).json;
      const ajv = new Ajv2020({ strict: true, allErrors: true });
      addFormats(ajv);
      // The document is the root of its schemas' `#/components/...` references.
      ajv.addKeyword('components');
      ajv.addSchema({ $id: `urn:openapi:${host}`, components: closed(documents[host].components) });
      validators[host] = ajv;
    }
  });
  afterAll(async () => {
    await notifier?.stop();
    await store?.stop();
    await receiver?.stop();
  });

  /** The document's schemas as the answers must meet them: besides what they declare, no field that
   * they do not name (each object with `properties` closed to others). */
  const closed = (schema: unknown): unknown =>
    Array.isArray(schema)
      ? schema.map(closed)
      : schema && typeof schema === 'object'
        ? {
            ...Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)])),
            ...('properties' in schema && (schema as Schema)['type'] === 'object' && !('additionalProperties' in schema)
              ? { additionalProperties: false }
              : {}),
          }
        : schema;
  /** A schema of the document, its local references made to point into the document. */
  const anchored = (host: string, schema: unknown): unknown =>
    Array.isArray(schema)
      ? schema.map((item) => anchored(host, item))
      : schema && typeof schema === 'object'
        ? Object.fromEntries(
            Object.entries(schema).map(([key, value]) => [
              key,
              key === '$ref' && typeof value === 'string' && value.startsWith('#')
                ? `urn:openapi:${host}${value}`
                : anchored(host, value),
            ]),
          )
        : schema;
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (host: string, key: string, schema: unknown): ValidateFunction => {
    const id = `${host} ${key}`;
    if (!compiled.has(id)) compiled.set(id, validators[host].compile(closed(anchored(host, schema)) as object));
    return compiled.get(id) as ValidateFunction;
  };
  /** Fails with the validator's own account of what does not conform. */
  const expectValid = (host: string, key: string, schema: unknown, value: unknown) => {
    const validate = validatorOf(host, key, schema);
    validate(value);
    expect({ [key]: validate.errors ?? [] }).toEqual({ [key]: [] });
  };

  /** The operations of each document, as `METHOD /path`. */
  const operationKeys = (host: string) =>
    Object.entries(documents[host].paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.tags.includes('operations'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
  const seen = { success: new Set<string>(), refusal: new Set<string>() };

  /** One call to an operation, as a client would make it: GET with a query, POST with a JSON body. Its
   * answer is checked against what the document says the operation answers: HTTP 200, the `oneOf` of
   * the success shape and the failure envelope, and exactly the one that `expected` names. */
  async function call(
    host: string,
    key: string,
    params: Record<string, string | number>,
    expected: 'success' | 'refusal',
  ): Promise<any> {
    const [method, path] = key.split(' ');
    const texts = Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)]));
    const answer = method === 'GET' ? await get(base(host), path, texts) : await postJson(base(host), path, params);
    const documented = documents[host].paths[path]?.[method.toLowerCase()];
    expect({ key, documented: documented !== undefined }).toEqual({ key, documented: true });
    expect({ key, status: answer.status, type: answer.contentType }).toEqual({
      key,
      status: 200,
      type: 'application/json; charset=utf-8',
    });
    const schema = documented.responses['200'].content?.['application/json'].schema as { oneOf: Schema[] };
    expectValid(host, `${key} 200`, schema, answer.json);
    expectValid(host, `${key} ${expected}`, schema.oneOf[expected === 'success' ? 0 : 1], answer.json);
    if (host === 'instance') expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    seen[expected].add(`${host} ${key}`);
    return answer.json;
  }
  const ok = (host: string, key: string, params: Record<string, string | number>) => call(host, key, params, 'success');
  const refused = (host: string, key: string, params: Record<string, string | number>) =>
    call(host, key, params, 'refusal');

  it("gives every documented operation's success and refusal in the shapes its document declares", async () => {
    const client = selfService(store);
    let who: Account = await client.newAccount();
    const account = () => ({ email: who.email, apikey: who.apikey });
    const url = receiver.url('/openapi-hook');

    const first = await ok('account', 'GET /newInstance', { email: who.email, token: who.apikey, packageid: 'trial' });
    let instance: Instance = { instanceid: first.instanceid, token: first.token };
    // A second instance with no webhook: listed without a signing secret, then deleted.
    const spare = await ok('account', 'GET /newInstance', { email: who.email, token: who.apikey, packageid: 'trial' });
    await ok('account', 'GET /webhook', { ...instance, webhookUrl: url });

    for (const method of ['GET', 'POST']) {
      const changed = await ok('instance', `${method} /webhook`, {
        ...instance,
        webhookUrl: url,
        events: 'messages,acks,instance',
      });
      expect(changed.events).toEqual(['messages', 'acks', 'instance']);
      await ok('instance', `${method} /getWebhookStatus`, instance);
      await ok('instance', `${method} /rotateSigningSecret`, instance);
      expect(await ok('instance', `${method} /testWebhook`, instance)).toMatchObject({ delivered: true, status: 200 });
    }
    // A message and an ack, so that notifications carry both bodies; a renewal adds an instance notice.
    expect((await client.ingest(instance.instanceid, 'messages', 'openapi-message')).status).toBe(202);
    expect((await client.ingest(instance.instanceid, 'acks', 'openapi-message')).status).toBe(202);
    await ok('account', 'GET /renewInstance', { ...account(), instanceid: instance.instanceid, packageid: 'trial' });

    // Until the notifier has made and delivered them: a message, an ack and the renewal.
    for (let waited = 0; receiver.at('/openapi-hook').filter((r) => r.json?.sequence).length < 3; waited += 25) {
      if (waited > 10_000) throw new Error('the notifier delivered no message, ack and renewal notifications');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const method of ['GET', 'POST']) {
      const listed = await ok('instance', `${method} /getNotifications`, { ...instance, after: 0, limit: 50 });
      expect(listed.notifications.map((n: { body: object }) => Object.keys(n.body).pop())).toEqual(
        expect.arrayContaining(['messages', 'ack', 'instance']),
      );
      const logs = await ok('instance', `${method} /getWebhookLogs`, { ...instance, limit: 20 });
      // Tests (sequence null) and deliveries (a sequence).
      expect(logs.attempts.map((a: { test: boolean }) => a.test)).toEqual(expect.arrayContaining([true, false]));
      await ok('instance', `${method} /redeliver`, { ...instance, from: 1 });
    }
    const listed = await ok('account', 'GET /listInstances', account());
    expect(listed.instances).toHaveLength(2);
    // Section 13: a label, a page, a reported state, the usage.
    await ok('account', 'GET /setInstanceLabel', { ...account(), instanceid: instance.instanceid, label: 'shop' });
    expect((await ok('account', 'GET /listInstances', { ...account(), limit: 1 })).next).toBe(instance.instanceid);
    for (const method of ['GET', 'POST']) await ok('instance', `${method} /getInstanceState`, instance);
    expect((await ok('account', 'GET /getUsage', account())).usage).not.toHaveLength(0);

    const reset = await ok('account', 'GET /resetInstanceToken', { ...account(), instanceid: instance.instanceid });
    instance = { instanceid: instance.instanceid, token: reset.token };
    await ok('account', 'GET /deleteInstance', { ...account(), instanceid: spare.instanceid });
    const key = await ok('account', 'GET /resetApiKey', account());
    who = { email: who.email, apikey: key.apikey };

    // Refusals: a request without its parameters (the form stage), wrong credentials (the
    // authentication stage), and some of the rest.
    const wrong = {
      email: who.email,
      apikey: 'wrong-key',
      token: 'wrong-token',
      instanceid: instance.instanceid,
      packageid: 'trial',
      webhookUrl: url,
      from: 1,
    };
    const codes: Record<string, string[]> = {};
    for (const host of ['account', 'instance']) {
      for (const key of operationKeys(host)) {
        codes[`${host} ${key} empty`] = (await refused(host, key, {})).msg;
        codes[`${host} ${key} wrong`] = (await refused(host, key, wrong)).msg;
      }
    }
    expect(codes['account GET /listInstances empty']).toEqual(['0001']);
    expect(codes['account GET /listInstances wrong']).toEqual(['0003']);
    expect(codes['instance POST /redeliver wrong']).toEqual(['0006']);
    expect(
      (
        await refused('account', 'GET /renewInstance', {
          ...account(),
          instanceid: spare.instanceid,
          packageid: 'trial',
        })
      ).msg,
    ).toEqual(['0005']);
    expect(
      (
        await refused('account', 'GET /newInstance', {
          email: who.email,
          token: who.apikey,
          packageid: 'no-such-package',
        })
      ).msg,
    ).toEqual(['0004']);
    expect(
      (await refused('instance', 'POST /webhook', { ...instance, webhookUrl: 'https://example.com\\hook' })).msg,
    ).toEqual(['0008']);
    await ok('instance', 'POST /webhook', { ...instance, webhookUrl: '' });
    expect((await refused('instance', 'GET /testWebhook', instance)).msg).toEqual(['0015']);
    expect((await refused('instance', 'POST /redeliver', { ...instance, from: 1 })).msg).toEqual(['0015']);

    // Every documented operation of both hosts was seen succeeding and refusing.
    const all = ['account', 'instance'].flatMap((host) => operationKeys(host).map((key) => `${host} ${key}`)).sort();
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect([...seen.success].sort()).toEqual(all);
    expect([...seen.refusal].sort()).toEqual(all);
  });

  it('answers every documented path and method without a routing failure, preflights included', async () => {
    // The dashboard's bundled files are named by their content: take one the page loads.
    const page = await request(`${store.api.accountUrl}/`);
    const asset = /assets\/([^"'?#]+)/.exec(page.text)?.[1];
    expect(asset).toBeDefined();
    const probed: string[] = [];
    for (const host of ['account', 'instance']) {
      for (const [path, item] of Object.entries(documents[host].paths)) {
        for (const [method, op] of Object.entries(item)) {
          const url = `${base(host)}${path.replace('{file}', asset ?? '')}`;
          const preflight = method === 'options';
          const answer = await request(url, {
            method: method.toUpperCase(),
            headers: preflight
              ? {
                  origin: 'https://elsewhere.example',
                  'access-control-request-method': 'POST',
                  'access-control-request-headers': 'content-type',
                }
              : {},
          });
          const routing = answer.status === 404 || answer.status === 405 || (answer.json?.msg ?? []).includes('0013');
          expect({ host, method, path, routing }).toEqual({ host, method, path, routing: false });
          // Each answer has a status the document declares for it.
          const documented = Object.keys(op.responses).filter((status) => status !== 'default');
          expect({ host, method, path, status: documented.includes(String(answer.status)) }).toEqual({
            host,
            method,
            path,
            status: true,
          });
          if (preflight) {
            const headers = op.responses['204'].headers ?? {};
            for (const [name, { schema }] of Object.entries(headers)) {
              const value = answer.headers.get(name);
              expect({ path, name, present: value !== null }).toEqual({ path, name, present: true });
              expectValid(
                host,
                `${path} OPTIONS ${name}`,
                schema,
                schema['type'] === 'integer' ? Number(value) : value,
              );
            }
          }
          const body = op.responses[String(answer.status)]?.content?.['application/json'];
          if (body && method === 'get' && path !== '/openapi.json')
            expectValid(host, `${method} ${path} body`, body.schema, answer.json);
          probed.push(`${host} ${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(probed.filter((key) => key.includes(' OPTIONS ')).length).toBeGreaterThan(0);
    expect(probed).toContain('account GET /assets/{file}');
  });
});
