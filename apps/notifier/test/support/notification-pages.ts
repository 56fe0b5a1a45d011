import { expectSuccess, postJson, type ReceivedRequest } from '@gw/testing';
import type { Instance, Stack } from './stack';

/** One item of getNotifications (docs/api.md 8.7). */
export interface ListedNotification {
  sequence: number;
  webhookId: string;
  createdAt: string;
  state: 'pending' | 'delivered' | 'deadLettered' | 'cancelled';
  body: Record<string, any>;
}

/** getNotifications' raw answer, so that refusals can be checked too. */
export const getNotifications = (stack: Stack, instance: Instance, params: Record<string, unknown> = {}) =>
  postJson(stack.api.apiUrl, '/getNotifications', { ...instance, ...params });

/** One page of getNotifications, expected to succeed. */
export async function notificationsPage(stack: Stack, instance: Instance, params: Record<string, unknown> = {}) {
  return expectSuccess(await getNotifications(stack, instance, params)) as {
    lastSequence: number;
    notifications: ListedNotification[];
  };
}

/** Everything after `after`, fetched page by page as a receiver catching up would, `limit` at a time. */
export async function allNotifications(
  stack: Stack,
  instance: Instance,
  limit = 100,
  after = 0,
): Promise<ListedNotification[]> {
  const found: ListedNotification[] = [];
  for (;;) {
    const page = await notificationsPage(stack, instance, { after, limit });
    found.push(...page.notifications);
    // A page may be cut short at 1 MiB: the last one shows lastSequence, or nothing.
    const last = page.notifications.at(-1)?.sequence;
    if (last === undefined || last >= page.lastSequence) return found;
    after = last;
  }
}

/** redeliver's raw answer (docs/api.md 8.8). */
export const redeliver = (stack: Stack, instance: Instance, params: Record<string, unknown>) =>
  postJson(stack.api.apiUrl, '/redeliver', { ...instance, ...params });

/** The body of the last POST the receiver got for each webhook id: what getNotifications must equal. */
export function postedBodies(requests: readonly ReceivedRequest[]): Map<string, unknown> {
  const bodies = new Map<string, unknown>();
  for (const r of requests) bodies.set(r.webhookId, JSON.parse(r.rawBody));
  return bodies;
}

/** The message ids carried by notifications, in order (a notification may carry several). */
export const messageIds = (notifications: readonly { body: Record<string, any> }[]) =>
  notifications.flatMap((n) => (n.body['messages'] ?? []).map((m: { id: string }) => m.id));
