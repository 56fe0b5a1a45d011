// `accounts create | reset-key | erase` (docs/api.md sections 5, 8.3 and 9): the account is found
// by the keyed hash of the address given; the store holds the address sealed only, so every message
// here names the address as the operator typed it (normalized), never one read back.
import { AccountIdentity, eraseAccount, registerAccount, resetApiKey } from '@gw/application';
import type { AppConfig } from '@gw/config';
import {
  AccountAlreadyExists,
  AccountHasActiveInstances,
  AccountWasErased,
  normalizeEmail,
  NoSuchAccount,
} from '@gw/domain-accounts';
import type { EventStore } from '@gw/event-store';

/** An account command the operator must be told was refused (exit 1), in words naming the address. */
export class AccountRefused extends Error {}

function refusal(error: unknown, email: string): unknown {
  const who = normalizeEmail(email);
  if (error instanceof AccountAlreadyExists) return new AccountRefused(`an account for ${who} already exists`);
  if (error instanceof AccountWasErased)
    return new AccountRefused(`the account of ${who} was erased; the address cannot be registered again`);
  if (error instanceof NoSuchAccount) return new AccountRefused(`no account for ${who}`);
  if (error instanceof AccountHasActiveInstances) {
    return new AccountRefused(
      `the account of ${who} has ${error.activeInstances} active instance(s); delete them (or let them expire) before erasing it`,
    );
  }
  return error;
}

async function refusingAs<T>(email: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw refusal(error, email);
  }
}

export function createAccount(
  store: EventStore,
  config: AppConfig,
  email: string,
): Promise<{ email: string; apikey: string }> {
  const identity = new AccountIdentity(config.secrets.secretsKey);
  return refusingAs(email, () => registerAccount(store, identity, email, new Date().toISOString()));
}

export function resetAccountKey(
  store: EventStore,
  config: AppConfig,
  email: string,
): Promise<{ email: string; apikey: string }> {
  const identity = new AccountIdentity(config.secrets.secretsKey);
  return refusingAs(email, () =>
    resetApiKey(store, identity, email, new Date().toISOString(), config.store.conflictRetries),
  );
}

/** Erases the account of `email`: its sealed address becomes unreadable, it can no longer sign in. */
export async function eraseAccountOf(
  store: EventStore,
  config: AppConfig,
  email: string,
): Promise<{ email: string; erased: true }> {
  const identity = new AccountIdentity(config.secrets.secretsKey);
  await refusingAs(email, () =>
    eraseAccount(store, identity, email, new Date().toISOString(), config.store.conflictRetries),
  );
  return { email: normalizeEmail(email), erased: true };
}
