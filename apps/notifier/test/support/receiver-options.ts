import { createPublicKey, verify } from 'node:crypto';
import { postJson, type ReceivedRequest } from '@gw/testing';
import type { Instance, Stack } from './stack';

/** webhook (docs/api.md 4.4) with the receiver's options of section 12, as a JSON POST; the raw answer. */
export const registerWith = (stack: Stack, instance: Instance, webhookUrl: string, options: Record<string, unknown>) =>
  postJson(stack.api.apiUrl, '/webhook', { ...instance, webhookUrl, ...options });

/** Whether `whpk_…` verifies one `v1a,…` signature of the notification, as a receiver holding only the
 * public key checks it: Node's own Ed25519 over `id.timestamp.body` (Standard Webhooks). */
export function verifiesV1a(publicKey: string, signature: string, r: ReceivedRequest): boolean {
  if (!signature.startsWith('v1a,')) return false;
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ''), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  const signed = `${r.webhookId}.${String(r.headers['webhook-timestamp'])}.${r.rawBody}`;
  return verify(null, Buffer.from(signed), key, Buffer.from(signature.slice(4), 'base64'));
}
