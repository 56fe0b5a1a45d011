import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { normalizeEmail } from '@gw/domain-accounts';
import { WrongExpectedRevisionError, type EventStore } from '@gw/event-store';
import { newEventId } from '../ids';
import { SecretBox } from '../secret-box';

/** The data key of one account: 32 random bytes, sealed under SECRETS_KEY. Alone in its stream
 * (`accountkey-{accountId}`), so that deleting the stream destroys the key and nothing else. */
export type AccountKeyCreated = {
  type: 'AccountKeyCreated';
  data: { accountId: string; sealedKey: string; createdAt: string };
};

export const ACCOUNT_KEY_STREAM_PREFIX = 'accountkey-';

/** `accountkey-{accountId}`: the data key that seals an account's e-mail address. */
export function accountKeyStreamName(accountId: string): string {
  return `${ACCOUNT_KEY_STREAM_PREFIX}${accountId}`;
}

/**
 * How an e-mail address becomes an account's id, and how the address itself is kept (docs/api.md 9):
 * the id is a keyed hash (HMAC-SHA256 under a key derived from SECRETS_KEY), so a stream name or a
 * read model tells nothing of the address without the key, and the same address always finds the
 * same account; the address is sealed under a data key of the account's own, so that deleting that
 * key's stream makes every copy of it in the log unreadable.
 */
export class AccountIdentity {
  private readonly lookupKey: Buffer;
  private readonly box: SecretBox;

  constructor(secretsKey: Buffer) {
    this.box = new SecretBox(secretsKey);
    // A key of its own for lookups, so that the hash reveals nothing about SECRETS_KEY's other uses.
    this.lookupKey = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'gw account lookup', 32));
  }

  /** The account id of an address: 32 hex characters, the same for every spelling that normalizes alike. */
  accountId(email: string): string {
    return createHmac('sha256', this.lookupKey).update(normalizeEmail(email), 'utf8').digest('hex').slice(0, 32);
  }

  /** The normalized address sealed under the account's data key, which is made on first use. */
  async sealEmail(store: EventStore, accountId: string, email: string, now: string): Promise<string> {
    const key = await this.dataKey(store, accountId, now);
    return new SecretBox(key).seal(normalizeEmail(email));
  }

  /** The address an AccountRegistered sealed, or null once the account's data key was erased. */
  async openEmail(store: EventStore, accountId: string, sealed: string): Promise<string | null> {
    const key = await this.readKey(store, accountId);
    return key ? new SecretBox(key).openFresh(sealed) : null;
  }

  /** Destroys the account's data key: every sealed copy of its address becomes unreadable. */
  async eraseKey(store: EventStore, accountId: string): Promise<void> {
    await store.deleteStream(accountKeyStreamName(accountId));
  }

  private async dataKey(store: EventStore, accountId: string, now: string): Promise<Buffer> {
    const existing = await this.readKey(store, accountId);
    if (existing) return existing;
    const key = randomBytes(32);
    const created: AccountKeyCreated = {
      type: 'AccountKeyCreated',
      data: { accountId, sealedKey: this.box.seal(key.toString('base64')), createdAt: now },
    };
    try {
      // A random event id: with a derived one, a loser of the race would be told its append
      // succeeded (a retried id is a no-op) and use a key that was never stored.
      await store.append(accountKeyStreamName(accountId), [{ id: newEventId(), ...created }], 'no_stream');
      return key;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      const winner = await this.readKey(store, accountId);
      if (!winner) throw error;
      return winner;
    }
  }

  /** The data key in clear, or undefined when its stream is gone. Never remembered: an erasure by
   * another process takes effect on the next read. */
  private async readKey(store: EventStore, accountId: string): Promise<Buffer | undefined> {
    const event = await store.readLastEvent(accountKeyStreamName(accountId));
    if (!event || event.type !== 'AccountKeyCreated') return undefined;
    const { sealedKey } = event.data as AccountKeyCreated['data'];
    return Buffer.from(this.box.openFresh(sealedKey), 'base64');
  }
}
