import { createAccount, expectSuccess, get } from '@gw/testing';
import {
  DAY_MS,
  DEFAULT_EVENTS,
  DURATION_DAYS,
  expectKeys,
  ISO_MS,
  LISTED_KEYS,
  operationsApi,
  OPTION_KEYS,
  type Instance,
} from './support/operations';

/** docs/api.md section 4 on the account host (and 4.6), end to end through the built API. */

describe('operations on the account host (docs/api.md section 4)', () => {
  const ops = operationsApi();
  const { account, newInstance, list, status, listed } = ops;

  it('the operator CLI prints the e-mail lowercased, and a new account lists no instances', async () => {
    const created = createAccount(ops.api.dataDir, 'Mixed.Case@Example.COM');
    expect(created.email).toBe('mixed.case@example.com');
    expect(created.apikey).toMatch(/^\S{22,}$/);
    expect(await list(created)).toEqual([]);
  });

  it('newInstance answers instanceid, token, packageid, createdAt and expiresAt = createdAt + package duration', async () => {
    const who = account();
    const seen = new Set<string>();
    for (const packageid of ['trial', 'monthly', 'annual']) {
      const before = Date.now();
      const body = await newInstance(who, packageid);
      const after = Date.now();
      expectKeys(body, ['success', 'instanceid', 'token', 'packageid', 'createdAt', 'expiresAt']);
      expect(body.packageid).toBe(packageid);
      expect(typeof body.instanceid).toBe('string');
      expect(body.token).toMatch(/^\S{22,}$/);
      expect(body.createdAt).toMatch(ISO_MS);
      expect(body.expiresAt).toMatch(ISO_MS);
      expect(Date.parse(body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(body.createdAt)).toBeLessThanOrEqual(after + 1000);
      expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(DURATION_DAYS[packageid] * DAY_MS);
      seen.add(body.instanceid).add(body.token);
    }
    expect(seen.size).toBe(6);
  });

  it('renewInstance on an active instance counts from its expiresAt and can change the package', async () => {
    const who = account();
    const created = await newInstance(who, 'trial');
    const renew = (packageid: string) =>
      get(ops.api.accountUrl, '/renewInstance', {
        email: who.email,
        apikey: who.apikey,
        instanceid: created.instanceid,
        packageid,
      });

    const annual = expectSuccess(await renew('annual'));
    expectKeys(annual, ['success', 'instanceid', 'packageid', 'expiresAt']);
    expect(annual).toMatchObject({ instanceid: created.instanceid, packageid: 'annual' });
    expect(annual.expiresAt).toMatch(ISO_MS);
    expect(Date.parse(annual.expiresAt)).toBe(Date.parse(created.expiresAt) + 365 * DAY_MS);

    const monthly = expectSuccess(await renew('monthly'));
    expect(monthly.packageid).toBe('monthly');
    expect(Date.parse(monthly.expiresAt)).toBe(Date.parse(annual.expiresAt) + 30 * DAY_MS);

    expect(await listed(who, created)).toMatchObject({
      packageid: 'monthly',
      createdAt: created.createdAt,
      expiresAt: monthly.expiresAt,
      status: 'active',
    });
  });

  it("listInstances shows only the account's own instances, oldest first, with the documented keys and no secrets", async () => {
    const owner = account();
    const other = account();
    const mine = [
      await newInstance(owner, 'annual'),
      await newInstance(owner, 'trial'),
      await newInstance(owner, 'monthly'),
    ];
    const theirs = await newInstance(other);

    const answer = await get(ops.api.accountUrl, '/listInstances', { email: owner.email, apikey: owner.apikey });
    const body = expectSuccess(answer);
    expectKeys(body, ['success', 'instances', 'next']);
    expect(body.instances.map((i: Instance) => i.instanceid)).toEqual(mine.map((i) => i.instanceid));
    const created = body.instances.map((i: { createdAt: string }) => Date.parse(i.createdAt));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    body.instances.forEach((row: Record<string, unknown>, n: number) => {
      expectKeys(row, LISTED_KEYS);
      expect(row).toEqual({
        instanceid: mine[n].instanceid,
        packageid: mine[n].packageid,
        createdAt: mine[n].createdAt,
        expiresAt: mine[n].expiresAt,
        status: 'active',
        webhookUrl: '',
        webhookEnabled: false,
        events: DEFAULT_EVENTS,
        label: null,
        state: null,
      });
    });
    for (const secret of [...mine.map((i) => i.token), theirs.token, owner.apikey])
      expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toMatch(/hash|"token"/i);
    expect((await list(other)).map((i) => i.instanceid)).toEqual([theirs.instanceid]);
  });

  it('compares e-mail addresses case-insensitively on newInstance, renewInstance and listInstances', async () => {
    const who = account();
    const shouted = who.email.toUpperCase();
    const created = expectSuccess(
      await get(ops.api.accountUrl, '/newInstance', { email: shouted, token: who.apikey, packageid: 'trial' }),
    );
    expectSuccess(
      await get(ops.api.accountUrl, '/renewInstance', {
        email: shouted,
        apikey: who.apikey,
        instanceid: created.instanceid,
        packageid: 'trial',
      }),
    );
    const rows = expectSuccess(
      await get(ops.api.accountUrl, '/listInstances', { email: `Ops${who.email.slice(3)}`, apikey: who.apikey }),
    );
    expect(rows.instances.map((i: Instance) => i.instanceid)).toEqual([created.instanceid]);
    expect(await list(who)).toEqual(rows.instances);
    // Spaces around the address are ignored too.
    const spaced = expectSuccess(
      await get(ops.api.accountUrl, '/listInstances', { email: `  ${shouted} `, apikey: who.apikey }),
    );
    expect(spaced.instances).toEqual(rows.instances);
  });

  it('GET /webhook on the account host registers and clears the webhook like the instance host (4.6)', async () => {
    const instance = await newInstance(account());
    const viaAccountHost = (webhookUrl: string) =>
      get(ops.api.accountUrl, '/webhook', { instanceid: instance.instanceid, token: instance.token, webhookUrl });
    const on = expectSuccess(await viaAccountHost('https://8.8.8.8/account-host'));
    expectKeys(on, ['success', 'webhookUrl', 'enabled', 'events', ...OPTION_KEYS, 'health']);
    expect(on).toMatchObject({ webhookUrl: 'https://8.8.8.8/account-host', enabled: true, events: DEFAULT_EVENTS });
    expect(await status(instance)).toMatchObject({
      webhookUrl: 'https://8.8.8.8/account-host',
      enabled: true,
      instanceStatus: 'active',
    });
    expect(expectSuccess(await viaAccountHost(''))).toMatchObject({ webhookUrl: '', enabled: false });
    expect(await status(instance)).toMatchObject({ webhookUrl: '', enabled: false });
  });
});
