/** An account holder was provisioned by an operator. Only the API key's hash is recorded. */
export type AccountRegistered = {
  type: 'AccountRegistered';
  data: { email: string; apiKeyHash: string; registeredAt: string };
};

/** The account holder (or an operator) replaced the API key; the old one is refused from now. */
export type ApiKeyReset = {
  type: 'ApiKeyReset';
  data: { email: string; apiKeyHash: string; resetAt: string };
};

export type AccountEvent = AccountRegistered | ApiKeyReset;

export function isAccountEvent(event: { type: string }): event is AccountEvent {
  return event.type === 'AccountRegistered' || event.type === 'ApiKeyReset';
}

/** Stream of one account; e-mail addresses compare case-insensitively, so the name is lowercased. */
export function accountStreamName(email: string): string {
  return `account-${normalizeEmail(email)}`;
}

/** The canonical form of an e-mail address. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
