import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountKeyStreamName } from '@gw/application';
import { expectFailure, expectSuccess, runOpsAsync } from '@gw/testing';
import { ApiOnStore, STORES } from './support/api-on-store';
import { INTERNAL_TOKEN, selfService, type SelfService } from './support/self-service';

/** docs/api.md 9 (e-mail addresses) end to end, on both stores: the address is stored only sealed
 * and named by a keyed hash, `accounts erase` destroys the key that seals it, and then the account
 * can no longer sign in nor be registered again. */

/** The files under a directory that contain `needle` (as UTF-8 bytes), WAL and read models included. */
function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => readFileSync(file).includes(bytes));
}

describe.each(STORES)('e-mail addresses on %s', (_store, onEsdb) => {
  let store: ApiOnStore;
  let c: SelfService;
  beforeAll(async () => {
    store = await ApiOnStore.start(onEsdb, { INTERNAL_TOKEN });
    c = selfService(store);
  }, 60_000);
  afterAll(() => store?.stop());

  /** Every spelling of an address that could have been stored. */
  const spellings = (typed: string) => [typed, typed.toLowerCase(), encodeURIComponent(typed.toLowerCase())];

  it('are in no stream name, no event, no file under DATA_DIR and no log line, while the account works as before', async () => {
    const typed = `Erin.Clear.${process.pid}@Example.COM`;
    const who = await store.createAccount(typed);
    expect(who.email).toBe(typed.toLowerCase());
    const instance = await c.newInstance(who);
    expectSuccess(await c.renew(who, instance.instanceid));
    expect((await c.listed(who)).map((i) => i.instanceid)).toEqual([instance.instanceid]);
    expectSuccess(await c.resetToken(who, instance.instanceid));
    expectFailure(await c.list({ email: who.email, apikey: 'gwk_wrong' }), ['0003']);
    const reset = expectSuccess(await c.resetKey(who));
    expect(reset.email).toBe(who.email);
    expect((await c.listed({ email: typed, apikey: reset.apikey })).map((i) => i.instanceid)).toEqual([
      instance.instanceid,
    ]);

    // The request log is there, with every call above in it, and the address in none.
    expect(store.api.output).toMatch(/"path":"\/listInstances\?email=\[REDACTED\]/);
    const everything = await store.withStore((s) => s.readAll({ maxCount: 100_000 }));
    const stored = JSON.stringify(everything.map((e) => [e.streamName, e.type, e.data, e.metadata])).toLowerCase();
    for (const spelling of spellings(typed)) {
      expect(stored).not.toContain(spelling.toLowerCase());
      expect(filesContaining(store.api.dataDir, spelling)).toEqual([]);
      expect(store.api.output).not.toContain(spelling);
    }
    expect((await store.rawStream(store.accountStream(typed))).map((e) => e.type)).toEqual([
      'AccountRegistered',
      'ApiKeyReset',
    ]);
  });

  it('erase is refused while the account has an active instance, and changes nothing', async () => {
    const who = await store.createAccount(`erin.busy.${process.pid}@example.com`);
    const instance = await c.newInstance(who);
    const refused = await runOpsAsync(store.api.dataDir, ['accounts', 'erase', '--email', who.email], store.storeEnv);
    expect(refused).toMatchObject({ status: 1, stdout: '' });
    expect(refused.stderr).toBe(
      `error: the account of ${who.email} has 1 active instance(s); delete them (or let them expire) before erasing it\n`,
    );
    expect((await c.listed(who)).map((i) => i.instanceid)).toEqual([instance.instanceid]);
    expect(await store.rawStream(accountKeyStreamName(store.accountIdentity().accountId(who.email)))).toHaveLength(1);
  });

  it('erase of an account without active instances makes its address unreadable for good and ends its sign-in', async () => {
    const who = await store.createAccount(`erin.gone.${process.pid}@example.com`);
    const instance = await c.newInstance(who);
    expectSuccess(await c.deleteInstance(who, instance.instanceid));
    const identity = store.accountIdentity();
    const accountId = identity.accountId(who.email);
    const [keyEvent] = await store.rawStream(accountKeyStreamName(accountId));
    const sealedKey = (keyEvent.data as { sealedKey: string }).sealedKey;
    const [registered] = await store.rawStream(store.accountStream(who.email));
    const sealedEmail = (registered.data as { email: string }).email;
    expect(await store.withStore((s) => identity.openEmail(s, accountId, sealedEmail))).toBe(who.email);
    // The scan below sees what is there: before the erasure the sealed key is in the store file.
    if (!onEsdb) expect(filesContaining(store.api.dataDir, sealedKey)).not.toEqual([]);

    const erased = JSON.parse(await store.ops(['accounts', 'erase', '--email', ` ${who.email.toUpperCase()} `]));
    expect(erased).toEqual({ email: who.email, erased: true });

    // The data key is gone, so the address sealed in the log opens no more, for anyone.
    expect(await store.rawStream(accountKeyStreamName(accountId))).toEqual([]);
    expect(await store.withStore((s) => identity.openEmail(s, accountId, sealedEmail))).toBeNull();
    // On the embedded store not a byte of it stays in any file (the WAL included).
    if (!onEsdb) expect(filesContaining(store.api.dataDir, sealedKey.slice(3))).toEqual([]);
    expect((await store.rawStream(store.accountStream(who.email))).map((e) => e.type)).toEqual([
      'AccountRegistered',
      'AccountErased',
    ]);
    expect((await store.rawStream(`instance-${instance.instanceid}`)).map((e) => e.type)).toEqual([
      'InstanceCreated',
      'InstanceDeleted',
    ]);

    // Signing in is refused exactly as with an unknown address.
    const unknown = await c.list({ email: `nobody.${process.pid}@example.com`, apikey: who.apikey });
    for (const answer of [await c.list(who), await c.resetKey(who), await c.renew(who, instance.instanceid)]) {
      expectFailure(answer, ['0003']);
      expect(answer.json).toEqual(unknown.json);
    }
    const recreate = await runOpsAsync(store.api.dataDir, ['accounts', 'create', '--email', who.email], store.storeEnv);
    expect(recreate).toMatchObject({ status: 1, stdout: '' });
    expect(recreate.stderr).toBe(
      `error: the account of ${who.email} was erased; the address cannot be registered again\n`,
    );
    const again = await runOpsAsync(store.api.dataDir, ['accounts', 'erase', '--email', who.email], store.storeEnv);
    expect(again).toMatchObject({ status: 1, stderr: `error: no account for ${who.email}\n` });
    const rekey = await runOpsAsync(store.api.dataDir, ['accounts', 'reset-key', '--email', who.email], store.storeEnv);
    expect(rekey).toMatchObject({ status: 1, stderr: `error: no account for ${who.email}\n` });
    // A refused registration made no new key.
    expect(await store.rawStream(accountKeyStreamName(accountId))).toEqual([]);
  });
});
