import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountIdentity, accountStream, registerAccount, withEventSchemas } from '@gw/application';
import { loadConfig } from '@gw/config';
import { Refusal } from '@gw/contract';
import type { EventStore } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';
import { RateLimits } from '../rate-limits/rate-limits';
import { AccountAuthenticator } from './account-authenticator';

/** The module object itself (an `import * as` is a copy, which spying would not reach). */
const crypto = jest.requireActual<typeof import('node:crypto')>('node:crypto');

/** Every call the authenticator makes to the store, by method, and the events the reads returned. */
function counting(store: EventStore): {
  store: EventStore;
  calls: Record<string, number>;
  eventsRead: { count: number };
} {
  const calls: Record<string, number> = {};
  const eventsRead = { count: 0 };
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return async (...args: unknown[]) => {
        calls[key] = (calls[key] ?? 0) + 1;
        const result = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
        if (Array.isArray(result)) eventsRead.count += result.length;
        else if (result && key === 'readLastEvent') eventsRead.count += 1;
        return result;
      };
    },
  });
  return { store: wrapped, calls, eventsRead };
}

// docs/api.md section 2, Timing (CONTRACT section 11): a wrong API key for an existing address and
// any key for an unknown one cost the same work. Timing itself is never asserted; the work is
// counted on the real embedded store: reads, events folded, hashes and constant-time comparisons.
describe('account authentication does the same work for an unknown address as for a wrong key', () => {
  let dir: string;
  let inner: EventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-account-auth-'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await inner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads one stream, folds one event, hashes and compares once, either way', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }, dir);
    inner = withEventSchemas(openEventStore(config.store.eventStore));
    const identity = new AccountIdentity(config.secrets.secretsKey);
    const { apikey } = await registerAccount(inner, identity, 'known@example.com', new Date().toISOString());

    const work = async (email: string, key: string) => {
      const { store, calls, eventsRead } = counting(inner);
      const auth = new AccountAuthenticator(
        store,
        new RateLimits({ accountPerMinute: 0, instancePerMinute: 0, authFailuresPerMinute: 0, ingestInFlight: 0 }),
        identity,
      );
      const folded = jest.spyOn(accountStream, 'evolve');
      const compared = jest.spyOn(crypto, 'timingSafeEqual');
      const hashed = jest.spyOn(crypto, 'createHash');
      const hashedInOne = jest.spyOn(crypto, 'hash');
      const keyed = jest.spyOn(crypto, 'createHmac');
      const refused = await auth.authenticate(email, key).then(
        () => false,
        (error: unknown) => error instanceof Refusal && error.kind === 'request',
      );
      const counted = {
        refused,
        calls: { ...calls },
        eventsRead: eventsRead.count,
        folded: folded.mock.calls.length,
        compared: compared.mock.calls.length,
        hashed: hashed.mock.calls.length + hashedInOne.mock.calls.length,
        keyed: keyed.mock.calls.length,
      };
      jest.restoreAllMocks();
      return counted;
    };

    const wrongKey = await work('known@example.com', 'gwk_not-the-key');
    const unknown = await work('nobody@example.com', 'gwk_not-the-key');
    expect(wrongKey).toMatchObject({
      refused: true,
      calls: { readStream: 1 },
      eventsRead: 1,
      folded: 1,
      compared: 1,
      hashed: 1,
    });
    // The unknown address's stream is read too (and is empty); a decoy history of the same shape is
    // folded instead, and the key compared with its hash.
    expect({ ...unknown, eventsRead: 1 }).toEqual(wrongKey);
    expect(unknown.eventsRead).toBe(0);
    // The right key still works, through the same path.
    expect((await work('known@example.com', apikey)).refused).toBe(false);
  });
});
