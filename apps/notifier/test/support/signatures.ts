import { postJson, type ReceivedRequest } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { headersOf } from './delivery-fixtures';
import type { Instance, Stack } from './stack';

/** The `v1,…` signatures of a received notification's `webhook-signature`, in the order sent. */
export const signaturesOf = (r: ReceivedRequest): string[] => String(r.headers['webhook-signature'] ?? '').split(' ');

/** The signature `secret` gives this notification, computed by the Standard Webhooks library. */
export const signatureBy = (secret: string, r: ReceivedRequest): string =>
  new Webhook(secret).sign(r.webhookId, new Date(Number(r.headers['webhook-timestamp']) * 1000), r.rawBody);

/** Whether `secret` alone verifies the notification, as a receiver holding only it would check. */
export function verifiesWith(secret: string, r: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(r.rawBody, headersOf(r));
    return true;
  } catch {
    return false;
  }
}

/** rotateSigningSecret (docs/api.md 8.5), as a JSON POST; the raw answer, so refusals can be checked. */
export const rotate = (stack: Stack, instance: Instance) =>
  postJson(stack.api.apiUrl, '/rotateSigningSecret', instance);
