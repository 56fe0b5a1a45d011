import type { Plan, ReceivedRequest, WebhookReceiver } from '@gw/testing';
import { until, type Instance, type Stack } from './stack';

/** A timestamp as the contract writes them: ISO 8601 in UTC, with milliseconds. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** 1..n. */
export const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** A received request's headers, as standardwebhooks verifies them. */
export const headersOf = (r: ReceivedRequest) => r.headers as Record<string, string>;

let paths = 0;
/** A receiver path no other instance of this test file uses. */
export const freshPath = () => `/hook/${++paths}`;

/** A new instance whose webhook points at its own path on the receiver, answering as `plan` says,
 * notified of the kinds `events` names (the default set when not given). */
export async function subscribed(stack: Stack, receiver: WebhookReceiver, plan?: Plan, events?: string) {
  const instance = await stack.newInstance();
  const path = freshPath();
  if (plan) receiver.plan(path, plan);
  const url = receiver.url(path);
  const registered = await stack.webhook(instance, url, events);
  return { instance, path, url, secret: registered.signingSecret as string };
}

/** Waits until getWebhookLogs lists at least `n` attempts; returns them (newest first). */
export const loggedAttempts = (stack: Stack, instance: Instance, n: number, timeoutMs = 10_000) =>
  until(
    `${n} logged attempts`,
    async () => {
      const attempts = await stack.logs(instance);
      return attempts.length >= n && attempts;
    },
    timeoutMs,
    100,
  );
