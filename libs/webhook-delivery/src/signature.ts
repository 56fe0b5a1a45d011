import { createHmac, createPrivateKey, sign, type KeyObject } from 'node:crypto';

/** The prefix of an Ed25519 private key as the service holds it in clear (only while signing):
 * `whsk_` + base64 of its PKCS#8 DER form. */
export const SIGNING_KEY_PREFIX = 'whsk_';

/** Private keys parsed before, by their text: parsing costs more than signing. Bounded like the
 * SecretBox's cache of opened secrets, which holds the same texts. */
const parsedKeys = new Map<string, KeyObject>();
const MAX_PARSED_KEYS = 10_000;

function privateKey(text: string): KeyObject {
  let key = parsedKeys.get(text);
  if (!key) {
    key = createPrivateKey({
      key: Buffer.from(text.slice(SIGNING_KEY_PREFIX.length), 'base64'),
      format: 'der',
      type: 'pkcs8',
    });
    if (parsedKeys.size >= MAX_PARSED_KEYS) parsedKeys.clear();
    parsedKeys.set(text, key);
  }
  return key;
}

/**
 * One Standard Webhooks signature of `id.timestamp.body`: with a `whsec_` secret, `v1,` + base64
 * HMAC-SHA256 keyed by the secret's bytes (its base64 part); with a `whsk_` private key (docs/api.md
 * section 12), `v1a,` + base64 of the Ed25519 signature.
 */
export function signWebhook(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const signed = `${webhookId}.${timestampSeconds}.${body}`;
  if (secret.startsWith(SIGNING_KEY_PREFIX)) {
    return `v1a,${sign(null, Buffer.from(signed), privateKey(secret)).toString('base64')}`;
  }
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}
