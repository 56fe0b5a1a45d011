import { DAY_MS, expectFailure, expectSuccess, get, postForm, postJson, shiftedClock } from '@gw/testing';
import { freshPath, ISO_MS, subscribed } from './support/delivery-fixtures';
import { rotate, signatureBy, signaturesOf, verifiesWith } from './support/signatures';
import { sleep, until, type Instance } from './support/stack';
import { stackOnStore, STORES } from './support/on-store';

/**
 * docs/api.md 8.5 end to end: rotateSigningSecret on the API, and the notifier signing real deliveries
 * with the new secret and, while the overlap lasts, the one it replaced. Signatures are checked as
 * receivers check them: the Standard Webhooks library, holding one secret at a time.
 */

const HOUR_MS = 3_600_000;
/** 1.8 s: an overlap a test can see end. */
const SHORT_OVERLAP_HOURS = 0.0005;

describe.each(STORES)('rotateSigningSecret on %s', (_store, onEsdb) => {
  const on = stackOnStore(onEsdb);

  /** Records message `id` and waits for the notification that carries it. */
  const notified = async (instance: Instance, path: string, id: string) => {
    await on.stack.message(instance, { id });
    return until(`the notification of ${id}`, () =>
      on.receiver.at(path).find((r) => r.json?.messages?.some((m: { id: string }) => m.id === id)),
    );
  };

  it('answers a new secret, which getWebhookStatus and listInstances show from then on; the URL and delivery stay', async () => {
    const { instance, url, secret: first } = await subscribed(on.stack, on.receiver);
    const before = await on.stack.status(instance);
    const sent = Date.now();
    const rotated = expectSuccess(await rotate(on.stack, instance));
    expect(Object.keys(rotated).sort()).toEqual(['previousValidUntil', 'signingSecret', 'success']);
    expect(rotated.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.signingSecret).not.toBe(first);
    // SIGNING_SECRET_OVERLAP_HOURS is left at its default: 24 h from the rotation.
    expect(rotated.previousValidUntil).toMatch(ISO_MS);
    const rotatedAt = Date.parse(rotated.previousValidUntil) - 24 * HOUR_MS;
    expect(rotatedAt).toBeGreaterThanOrEqual(sent);
    expect(rotatedAt).toBeLessThanOrEqual(Date.now());

    expect(await on.stack.status(instance)).toEqual({ ...before, signingSecret: rotated.signingSecret });
    const listed = (await on.stack.listInstances()).find((i) => i.instanceid === instance.instanceid);
    expect(listed).toMatchObject({ webhookUrl: url, webhookEnabled: true, signingSecret: rotated.signingSecret });
    // Registering the same URL again keeps the rotated secret.
    expect((await on.stack.webhook(instance, url)).signingSecret).toBe(rotated.signingSecret);
  });

  it('signs with the new secret and then the replaced one during the overlap, each verifying alone', async () => {
    const { instance, path, secret: old } = await subscribed(on.stack, on.receiver);
    const first = await notified(instance, path, 'before');
    expect(signaturesOf(first)).toEqual([signatureBy(old, first)]);

    const { signingSecret: fresh } = expectSuccess(await rotate(on.stack, instance));
    for (const id of ['during-1', 'during-2']) {
      const r = await notified(instance, path, id);
      // Two signatures separated by one space, the new secret's first.
      expect(signaturesOf(r)).toEqual([signatureBy(fresh, r), signatureBy(old, r)]);
      expect(verifiesWith(fresh, r)).toBe(true);
      expect(verifiesWith(old, r)).toBe(true);
      expect(verifiesWith('whsec_' + Buffer.alloc(32, 7).toString('base64'), r)).toBe(false);
    }
    // Delivery itself is unchanged: the same URL, the same numbering.
    expect(on.receiver.at(path).map((r) => r.json.sequence)).toEqual([1, 2, 3]);

    // Rotating again within the overlap: the newest and the one it replaced; the first no longer signs.
    const { signingSecret: third } = expectSuccess(await rotate(on.stack, instance));
    const r = await notified(instance, path, 'after-second-rotation');
    expect(signaturesOf(r)).toEqual([signatureBy(third, r), signatureBy(fresh, r)]);
    expect(verifiesWith(old, r)).toBe(false);
  });

  it("creates an instance's first secret when it has none (previousValidUntil null), which registration keeps", async () => {
    const instance = await on.stack.newInstance();
    expect((await on.stack.status(instance)).signingSecret).toBeUndefined();
    const rotated = expectSuccess(await rotate(on.stack, instance));
    expect(rotated).toEqual({
      success: true,
      signingSecret: expect.stringMatching(/^whsec_/),
      previousValidUntil: null,
    });
    expect(await on.stack.status(instance)).toMatchObject({
      webhookUrl: '',
      enabled: false,
      instanceStatus: 'active',
      signingSecret: rotated.signingSecret,
    });

    const path = freshPath();
    expect((await on.stack.webhook(instance, on.receiver.url(path))).signingSecret).toBe(rotated.signingSecret);
    const r = await notified(instance, path, 'first');
    expect(signaturesOf(r)).toEqual([signatureBy(rotated.signingSecret, r)]);
    expect(verifiesWith(rotated.signingSecret, r)).toBe(true);
  });

  it('leaves delivery off when it was switched off', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver);
    await on.stack.webhook(instance, '');
    const before = await on.stack.status(instance);
    expect(before).toMatchObject({ webhookUrl: '', enabled: false });
    const rotated = expectSuccess(await rotate(on.stack, instance));
    expect(await on.stack.status(instance)).toEqual({ ...before, signingSecret: rotated.signingSecret });
    await on.stack.message(instance, { id: 'while-off' });
    await sleep(500);
    expect(on.receiver.at(path)).toHaveLength(0);
  });

  it('refuses a wrong token or an unknown instance with 0006, changing nothing; takes GET, form and JSON', async () => {
    const { instance: a, secret } = await subscribed(on.stack, on.receiver);
    const b = await on.stack.newInstance();
    const api = on.stack.api.apiUrl;
    expectFailure(await rotate(on.stack, { instanceid: a.instanceid, token: b.token }), ['0006']);
    expectFailure(await rotate(on.stack, { instanceid: 'no-such-instance', token: a.token }), ['0006']);
    expectFailure(await postJson(api, '/rotateSigningSecret', { instanceid: a.instanceid }), ['0001']);
    expectFailure(await postJson(api, '/rotateSigningSecret', { instanceid: a.instanceid, token: [a.token] }), [
      '0002',
    ]);
    expect((await on.stack.status(a)).signingSecret).toBe(secret);

    const byGet = expectSuccess(await get(api, '/rotateSigningSecret', { ...a }));
    const byForm = expectSuccess(await postForm(api, '/rotateSigningSecret', { ...a }));
    expect(new Set([secret, byGet.signingSecret, byForm.signingSecret]).size).toBe(3);
    expect((await on.stack.status(a)).signingSecret).toBe(byForm.signingSecret);
    // An instance-host operation only (docs/api.md section 1).
    expectFailure(await get(on.stack.api.accountUrl, '/rotateSigningSecret', { ...a }), ['0013'], 404);
  });

  it('signs with the new secret alone once the overlap is over', async () => {
    await on.stack.restartApi({ SIGNING_SECRET_OVERLAP_HOURS: String(SHORT_OVERLAP_HOURS) });
    const { instance, path, secret: old } = await subscribed(on.stack, on.receiver);
    const sent = Date.now();
    const { signingSecret: fresh, previousValidUntil } = expectSuccess(await rotate(on.stack, instance));
    const end = Date.parse(previousValidUntil);
    const overlapMs = SHORT_OVERLAP_HOURS * HOUR_MS;
    expect(end - sent).toBeGreaterThanOrEqual(overlapMs);
    expect(end - Date.now()).toBeLessThanOrEqual(overlapMs);

    // Sent at once, it most likely goes out within the overlap; whenever it arrived before the end it
    // was signed before the end too, so it must carry both signatures.
    const soon = await notified(instance, path, 'soon');
    expect(verifiesWith(fresh, soon)).toBe(true);
    if (soon.arrivedAt < end - 100)
      expect(signaturesOf(soon)).toEqual([signatureBy(fresh, soon), signatureBy(old, soon)]);

    await sleep(Math.max(0, end - Date.now()) + 100);
    const later = await notified(instance, path, 'later');
    expect(signaturesOf(later)).toEqual([signatureBy(fresh, later)]);
    expect(verifiesWith(fresh, later)).toBe(true);
    expect(verifiesWith(old, later)).toBe(false);
    expect((await on.stack.status(instance)).signingSecret).toBe(fresh);
  });

  it('refuses an expired instance with 0007 (a wrong token is still 0006), and rotates again once renewed', async () => {
    const { instance, secret } = await subscribed(on.stack, on.receiver);
    const other = await on.stack.newInstance();
    // Packages last whole days: the API restarts with its clock past the trial's three days.
    const clock = shiftedClock(4 * DAY_MS);
    try {
      await on.stack.restartApi(clock.env);
      expect((await on.stack.status(instance)).instanceStatus).toBe('expired');
      expectFailure(await rotate(on.stack, instance), ['0007']);
      expectFailure(await rotate(on.stack, { instanceid: instance.instanceid, token: other.token }), ['0006']);
      expect((await on.stack.status(instance)).signingSecret).toBe(secret);

      await on.stack.renew(instance);
      const rotated = expectSuccess(await rotate(on.stack, instance));
      expect((await on.stack.status(instance)).signingSecret).toBe(rotated.signingSecret);
    } finally {
      clock.remove();
    }
  });
});
