/** How notifications are signed (docs/api.md section 12): Standard Webhooks `v1` (HMAC-SHA256 with
 * the `whsec_` secret) or `v1a` (Ed25519 with the instance's key pair). */
export const SIGNATURE_SCHEMES = ['hmac', 'ed25519'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'hmac';

/**
 * The receiver's own headers, as the domain sees them: their names (not secret; answers show them),
 * the sealed `[name, value]` list (opaque here; the values are secrets) and a keyed fingerprint of
 * that list, so that "the same headers again" can be told without opening anything. No headers:
 * no names, sealed and fingerprint null.
 */
export interface ReceiverHeaders {
  names: string[];
  sealed: string | null;
  fingerprint: string | null;
}

export const NO_HEADERS: ReceiverHeaders = { names: [], sealed: null, fingerprint: null };

export function sameHeaders(a: ReceiverHeaders, b: ReceiverHeaders): boolean {
  return a.fingerprint === b.fingerprint;
}

/** An Ed25519 key pair: the private key sealed (opaque to the domain), the public key as answers
 * show it (`whpk_` + base64 of its 32 raw bytes). */
export interface SigningKeyPair {
  sealedPrivateKey: string;
  publicKey: string;
}

/** The reason `getWebhookStatus` gives once failures went on for WEBHOOK_DISABLE_AFTER_HOURS. */
export const FAILING_REASON = 'failing';
