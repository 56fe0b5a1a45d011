import { expectSuccess, postJson, type ReceivedRequest } from '@gw/testing';
import { verifiesWith } from './signatures';
import type { Instance, Stack } from './stack';

/** testWebhook (docs/api.md 8.6) as a JSON POST; the raw answer, so refusals can be checked. */
export const testWebhook = (stack: Stack, instance: Instance, webhookUrl?: string) =>
  postJson(stack.api.apiUrl, '/testWebhook', { ...instance, ...(webhookUrl === undefined ? {} : { webhookUrl }) });

/** The keys of every successful testWebhook answer. */
const ANSWER_KEYS = ['delivered', 'durationMs', 'error', 'status', 'success'];

/** A successful testWebhook answer, its shape checked. */
export async function tested(
  stack: Stack,
  instance: Instance,
  webhookUrl?: string,
): Promise<{ delivered: boolean; status: number; durationMs: number; error: string }> {
  const answer = expectSuccess(await testWebhook(stack, instance, webhookUrl));
  expect(Object.keys(answer).sort()).toEqual(ANSWER_KEYS);
  expect(Number.isInteger(answer.durationMs) && answer.durationMs >= 0).toBe(true);
  return answer;
}

/** Checks a received test notification as a receiver would: the Standard Webhooks library with the
 * instance's secret, a `test_` id, and the body `{"instanceId", "test": true, "at"}`. */
export function expectTestNotification(r: ReceivedRequest, instanceid: string, secret: string): void {
  expect(r.method).toBe('POST');
  expect(r.webhookId).toMatch(/^test_[A-Za-z0-9]+$/);
  expect(verifiesWith(secret, r)).toBe(true);
  expect(Object.keys(r.json).sort()).toEqual(['at', 'instanceId', 'test']);
  expect(r.json).toMatchObject({ instanceId: instanceid, test: true });
  expect(r.json.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(r.headers['content-type']).toBe('application/json');
}

/** The test attempt getWebhookLogs lists for `webhookId`. */
export async function loggedTest(stack: Stack, instance: Instance, webhookId: string): Promise<any> {
  const attempts = await stack.logs(instance);
  return attempts.find((a) => a.webhookId === webhookId);
}
