/**
 * An account holder was provisioned by an operator. The account is known by `accountId`, a keyed
 * hash of its e-mail address made outside the domain; `email` is the address sealed under the
 * account's own data key (erasing that key makes it unreadable). Only the API key's hash is recorded.
 */
export type AccountRegistered = {
  type: 'AccountRegistered';
  data: { accountId: string; email: string; apiKeyHash: string; registeredAt: string };
};

/** The account holder (or an operator) replaced the API key; the old one is refused from now. */
export type ApiKeyReset = {
  type: 'ApiKeyReset';
  data: { accountId: string; apiKeyHash: string; resetAt: string };
};

/** An operator erased the account (docs/api.md 9): its address can no longer be read, it can no
 * longer sign in, and its address cannot be registered again. */
export type AccountErased = {
  type: 'AccountErased';
  data: { accountId: string; erasedAt: string };
};

/** The events of an account's stream. */
export type AccountEvent = AccountRegistered | ApiKeyReset | AccountErased;

// A record rather than a list, so that a new account event type fails the build until it is named here.
const ACCOUNT_TYPES: Record<AccountEvent['type'], true> = {
  AccountRegistered: true,
  ApiKeyReset: true,
  AccountErased: true,
};

/** Whether a stored event is one of an account's. */
export function isAccountEvent(event: { type: string }): event is AccountEvent {
  return Object.hasOwn(ACCOUNT_TYPES, event.type);
}

/** What every account stream's name starts with. */
export const ACCOUNT_STREAM_PREFIX = 'account-';

/** Stream of one account, named by its id, so that no stream name carries an e-mail address. */
export function accountStreamName(accountId: string): string {
  return `${ACCOUNT_STREAM_PREFIX}${accountId}`;
}

/** The canonical form of an e-mail address: addresses compare case-insensitively. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
