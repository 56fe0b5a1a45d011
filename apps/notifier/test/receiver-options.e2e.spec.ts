import { expectFailure, expectSuccess, get, runOpsAsync, type ReceivedRequest } from '@gw/testing';
import { foundOnDisk, text } from './support/data-dir-scan';
import { freshPath } from './support/delivery-fixtures';
import { registerWith, verifiesV1a } from './support/receiver-options';
import { rotate, signaturesOf, verifiesWith } from './support/signatures';
import { until, type Instance } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';
import { tested } from './support/test-webhook';

/**
 * docs/api.md section 12 end to end, with both processes and a real receiver: the receiver's own
 * headers on every notification and test, and Ed25519 (`v1a`) signatures checked with Node's own
 * crypto.verify holding only the public key.
 */

/** A header value that must never show anywhere but on the wire to the receiver. */
const SECRET_VALUE = 'Bearer s3cr3t-receiver-value-7f1c9a';
const HEADERS = JSON.stringify({ Authorization: SECRET_VALUE, 'X-Tenant': '7' });

describe.each(STORES)("receivers' options on %s", (_store, onEsdb) => {
  const on = stackOnStore(onEsdb);

  const newRegistration = async (options: Record<string, unknown>) => {
    const instance = await on.stack.newInstance();
    const path = freshPath();
    const answer = expectSuccess(await registerWith(on.stack, instance, on.receiver.url(path), options));
    return { instance, path, url: on.receiver.url(path), answer };
  };
  /** Records message `id` and waits for the notification that carries it. */
  const notified = async (instance: Instance, path: string, id: string): Promise<ReceivedRequest> => {
    await on.stack.message(instance, { id });
    return until(`the notification of ${id}`, () =>
      on.receiver.at(path).find((r) => r.json?.messages?.some((m: { id: string }) => m.id === id)),
    );
  };

  it('sends the headers exactly as given on every notification and test, and shows only their names', async () => {
    const { instance, path, url, answer } = await newRegistration({ webhookHeaders: HEADERS });
    expect(answer).toMatchObject({
      webhookHeaders: { Authorization: '***', 'X-Tenant': '***' },
      signatureScheme: 'hmac',
    });
    expect(await on.stack.status(instance)).toMatchObject({
      webhookHeaders: { Authorization: '***', 'X-Tenant': '***' },
    });
    const r = await notified(instance, path, 'with-headers');
    expect([r.headers['authorization'], r.headers['x-tenant']]).toEqual([SECRET_VALUE, '7']);
    expect(verifiesWith(answer.signingSecret, r)).toBe(true);

    // A test to the registered URL and one to an explicit URL carry them too.
    const other = freshPath();
    expect((await tested(on.stack, instance)).delivered).toBe(true);
    expect((await tested(on.stack, instance, on.receiver.url(other))).delivered).toBe(true);
    const tests = [...on.receiver.at(path), ...on.receiver.at(other)].filter((t) => t.webhookId.startsWith('test_'));
    expect(tests.map((t) => t.headers['authorization'])).toEqual([SECRET_VALUE, SECRET_VALUE]);

    // Left out on a later registration they stay; "{}" removes them all.
    expect(expectSuccess(await registerWith(on.stack, instance, url, { events: 'messages' })).webhookHeaders).toEqual({
      Authorization: '***',
      'X-Tenant': '***',
    });
    expect(expectSuccess(await registerWith(on.stack, instance, url, { webhookHeaders: '{}' })).webhookHeaders).toEqual(
      {},
    );
    const after = await notified(instance, path, 'without-headers');
    expect(after.headers['authorization']).toBeUndefined();
    // An empty URL ignores the options, malformed ones too: nothing is refused, nothing set.
    expectSuccess(await registerWith(on.stack, instance, '', { webhookHeaders: HEADERS, signatureScheme: 'ed25519' }));
    expect(await on.stack.status(instance)).toMatchObject({ webhookHeaders: {}, signatureScheme: 'hmac' });
    for (const malformed of [
      { webhookHeaders: 'not json' },
      { webhookHeaders: JSON.stringify({ Host: SECRET_VALUE }) },
      { signatureScheme: 'rsa' },
      { events: 'bogus' },
      { events: '' },
    ])
      expect(expectSuccess(await registerWith(on.stack, instance, '', malformed))).toMatchObject({ enabled: false });
    expect(await on.stack.status(instance)).toMatchObject({ webhookHeaders: {}, signatureScheme: 'hmac' });
  });

  it('refuses every malformed header set with 0002, naming no value, and changes nothing', async () => {
    const { instance, url } = await newRegistration({ webhookHeaders: HEADERS });
    const before = await on.stack.status(instance);
    const tooMany = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, SECRET_VALUE]));
    const refused = [
      `{"Authorization": "${SECRET_VALUE}", "authorization": "${SECRET_VALUE}"}`,
      JSON.stringify(tooMany),
      JSON.stringify({ Host: SECRET_VALUE }),
      JSON.stringify({ 'Proxy-Authorization': SECRET_VALUE }),
      JSON.stringify({ 'Webhook-Id': SECRET_VALUE }),
      JSON.stringify({ 'content-type': SECRET_VALUE }),
      JSON.stringify({ 'X A': SECRET_VALUE }),
      JSON.stringify({ 'X:A': SECRET_VALUE }),
      JSON.stringify({ '': SECRET_VALUE }),
      JSON.stringify({ ['X-' + 'a'.repeat(63)]: SECRET_VALUE }),
      JSON.stringify({ 'X-A': 7 }),
      JSON.stringify({ 'X-A': `${SECRET_VALUE}\n` }),
      JSON.stringify({ 'X-A': `${SECRET_VALUE}\u007f` }),
      JSON.stringify({ 'X-A': `${SECRET_VALUE}é` }),
      JSON.stringify({ 'X-A': 'v'.repeat(1025) }),
      `["${SECRET_VALUE}"]`,
      `{"X-A": "${SECRET_VALUE}"`,
    ];
    for (const webhookHeaders of refused) {
      const answer = await registerWith(on.stack, instance, url, { webhookHeaders });
      expectFailure(answer, ['0002']);
      expect(JSON.stringify(answer)).not.toContain('s3cr3t');
      expect(answer.json.details).toEqual([expect.objectContaining({ code: '0002', field: 'webhookHeaders' })]);
    }
    expectFailure(await registerWith(on.stack, instance, url, { signatureScheme: 'rsa' }), ['0002']);
    expectFailure(await registerWith(on.stack, instance, url, { webhookHeaders: { 'X-A': 'v' } }), ['0002']);
    expect(await on.stack.status(instance)).toEqual(before);
  });

  it('keeps header values out of request logs (query strings included) and out of DATA_DIR', async () => {
    const instance = await on.stack.newInstance();
    const url = on.receiver.url(freshPath());
    expectSuccess(
      await get(on.stack.api.apiUrl, '/webhook', { ...instance, webhookUrl: url, webhookHeaders: HEADERS }),
    );
    expectSuccess(
      await get(on.stack.api.accountUrl, '/webhook', { ...instance, webhookUrl: url, webhookHeaders: HEADERS }),
    );
    await notified(instance, new URL(url).pathname, 'logged');
    const outputs = [on.stack.api.output, on.stack.notifier?.output ?? ''].join('\n');
    expect(outputs).not.toContain('s3cr3t');
    const needles = [
      text('a header value', 's3cr3t-receiver-value-7f1c9a'),
      text('a header value (base64)', Buffer.from(SECRET_VALUE).toString('base64')),
      text('the headers (base64)', Buffer.from(HEADERS).toString('base64')),
    ];
    expect(foundOnDisk([on.stack.dataDir], needles)).toEqual([]);
    // The audit timeline shows that headers were set, and their names only.
    const timeline = await runOpsAsync(
      on.stack.dataDir,
      ['audit', 'timeline', '--instance', instance.instanceid, '--json'],
      on.stack.apiEnv,
    );
    expect(timeline.status).toBe(0);
    expect(timeline.stdout + timeline.stderr).not.toContain('s3cr3t');
    const set = timeline.stdout.split('\n').filter((line) => line.includes('WebhookHeadersSet'));
    expect(set).toHaveLength(1);
    expect(set[0]).toContain('Authorization');
  });

  it('signs v1a with the instance key pair under ed25519: notifications, tests, rotation with overlap', async () => {
    const { instance, path, url, answer } = await newRegistration({ signatureScheme: 'ed25519' });
    expect(answer.signatureScheme).toBe('ed25519');
    expect(answer.signingPublicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(answer.signingPublicKey.slice(5), 'base64')).toHaveLength(32);
    expect((await on.stack.status(instance)).signingPublicKey).toBe(answer.signingPublicKey);
    const first = await notified(instance, path, 'ed-1');
    expect(signaturesOf(first)).toHaveLength(1);
    expect(verifiesV1a(answer.signingPublicKey, signaturesOf(first)[0], first)).toBe(true);
    expect(verifiesWith(answer.signingSecret, first)).toBe(false);

    expect((await tested(on.stack, instance)).delivered).toBe(true);
    const test = on.receiver.at(path).find((r) => r.webhookId.startsWith('test_'))!;
    expect(verifiesV1a(answer.signingPublicKey, signaturesOf(test)[0], test)).toBe(true);

    // Rotation replaces the key pair; both sign, the new one first, during the overlap.
    const rotated = expectSuccess(await rotate(on.stack, instance));
    expect(rotated.signingPublicKey).toMatch(/^whpk_/);
    expect(rotated.signingPublicKey).not.toBe(answer.signingPublicKey);
    expect(rotated.signingSecret).toBe(answer.signingSecret);
    const during = await notified(instance, path, 'ed-2');
    const [fresh, old] = signaturesOf(during);
    expect(verifiesV1a(rotated.signingPublicKey, fresh, during)).toBe(true);
    expect(verifiesV1a(answer.signingPublicKey, old, during)).toBe(true);
    expect((await on.stack.status(instance)).signingPublicKey).toBe(rotated.signingPublicKey);

    // Back to hmac: v1 with the whsec_ secret, from the answer on.
    expect(
      expectSuccess(await registerWith(on.stack, instance, url, { signatureScheme: 'hmac' })).signatureScheme,
    ).toBe('hmac');
    const back = await notified(instance, path, 'hmac-again');
    expect(verifiesWith(answer.signingSecret, back)).toBe(true);
    expect(signaturesOf(back).every((s) => s.startsWith('v1,'))).toBe(true);
  });
});
