import type { ReceivedRequest } from '@gw/testing';

/** docs/api.md 8.9 in the e2e: marks seconds after creation. A trial instance runs 72 h, so a mark of
 * 72 − s/3600 hours comes s seconds after its creation; 72.5 h had passed already when it was made. */
const HOUR_MS = 3_600_000;
export const secondsAfterCreation = (seconds: number) => Number((72 - seconds / 3600).toFixed(6));

/** A mark's moment (ms) for an expiry. */
export const markOf = (expiresAt: string, hours: number) => Date.parse(expiresAt) - hours * HOUR_MS;

/** One notification as a receiver got it: sequence, webhook id, when, and what it carried. */
export interface Seen {
  sequence: number;
  webhookId: string;
  arrivedAt: number;
  what: string;
  instance?: { event: string; expiresAt: string; packageid?: string };
}

/** The distinct notifications a receiver got (a redelivered one counts once), in sequence order. */
export function seen(requests: readonly ReceivedRequest[]): Seen[] {
  const byId = new Map<string, Seen>();
  for (const r of requests) {
    const body = r.json as {
      sequence: number;
      messages?: Array<{ id: string }>;
      ack?: unknown[];
      instance?: Seen['instance'];
    };
    if (byId.has(r.webhookId)) continue;
    const what = body.instance
      ? `instance ${body.instance.event}`
      : body.messages
        ? `messages ${body.messages.map((m) => m.id).join(',')}`
        : 'ack';
    byId.set(r.webhookId, {
      sequence: body.sequence,
      webhookId: r.webhookId,
      arrivedAt: r.arrivedAt,
      what,
      ...(body.instance ? { instance: body.instance } : {}),
    });
  }
  return [...byId.values()].sort((a, b) => a.sequence - b.sequence);
}
