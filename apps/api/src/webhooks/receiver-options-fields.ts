import { SIGNATURE_SCHEMES, type CreatedInstance, type SignatureScheme } from '@gw/domain-instances';
import type { EndpointHealth } from '@gw/projections';
import { integer, mapOf, nullable, object, oneOfValues, optional, text, timestamp } from '../openapi/json-schema';

/** What answers show of the receiver's options (docs/api.md section 12). */
export interface ReceiverOptionsFields {
  signatureScheme: SignatureScheme;
  /** Header names, each mapped to "***": values are secrets and are never shown. */
  webhookHeaders: Record<string, string>;
  signingPublicKey?: string;
}

/** The options of an instance as answers show them. */
export function receiverOptionsFields(
  state: Pick<CreatedInstance, 'signatureScheme' | 'webhookHeaders' | 'signingKey'>,
): ReceiverOptionsFields {
  return {
    signatureScheme: state.signatureScheme,
    webhookHeaders: Object.fromEntries(state.webhookHeaders.names.map((name) => [name, '***'])),
    ...(state.signingKey ? { signingPublicKey: state.signingKey.publicKey } : {}),
  };
}

/** The same fields, described for the API description. */
export const receiverOptionsSchema = {
  signatureScheme: oneOfValues(
    SIGNATURE_SCHEMES,
    'hmac: v1 signatures with signingSecret; ed25519: v1a with the key pair',
  ),
  webhookHeaders: mapOf(text('always "***"'), "the receiver's own header names, values hidden; {} when none"),
  signingPublicKey: optional(
    text('whpk_ + base64 of the raw 32-byte Ed25519 public key; present once ed25519 was chosen (section 12)'),
  ),
};

/** `health` (section 12), as `webhook` and `getWebhookStatus` answer it, described. */
export const healthSchema = object<EndpointHealth>(
  {
    consecutiveFailures: integer('failed attempts in a row since the last success'),
    failingSince: nullable(timestamp('when the first of those failures was; null when none')),
    lastSuccessAt: nullable(timestamp('the last delivered notification; null before any')),
  },
  "how the receiver has answered the instance's notifications (tests left out)",
);
