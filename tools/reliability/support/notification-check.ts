import { Webhook } from 'standardwebhooks';
import type { Notification, Received } from './chaos-receiver';

/** One recorded message or ack, as the test sent it (in record order per instance). */
export interface RecordedItem {
  kind: 'message' | 'ack';
  id: string;
  /** An ack's status; undefined for a message. */
  status?: string;
  /** A message's text, when the test wants it checked too. */
  body?: string;
}

/** An instance whose notifications are checked: what it recorded, where its receiver path is. */
export interface CheckedInstance {
  instanceid: string;
  path: string;
  recorded: RecordedItem[];
  /** When given, every request to the path must carry a valid signature with it. */
  secret?: string;
}

export interface NotificationFigures {
  /** Distinct notifications (webhook-ids) over all instances. */
  notifications: number;
  /** Items carried by those notifications, each notification counted once. */
  items: number;
  /** The most items one notification carried. */
  largest: number;
  /** Notifications that carried more than one item. */
  batched: number;
}

type Payload = { id?: unknown; status?: unknown; body?: unknown };

/** The items of a notification body and their kind; undefined kind when it carries both or neither. */
function itemsOf(json: Notification | undefined): { kind?: 'message' | 'ack'; items: Payload[] } {
  const messages = Array.isArray(json?.messages) ? (json!.messages as Payload[]) : undefined;
  const acks = Array.isArray(json?.ack) ? (json!.ack as Payload[]) : undefined;
  if (messages && !acks && json?.ack === undefined) return { kind: 'message', items: messages };
  if (acks && !messages && json?.messages === undefined) return { kind: 'ack', items: acks };
  return { items: [...(messages ?? []), ...(acks ?? [])] };
}

const describeItem = (kind: string | undefined, p: Payload | RecordedItem | undefined) =>
  p === undefined ? 'nothing' : JSON.stringify({ kind, id: p.id, status: p.status });

/**
 * The batched notifications of docs/api.md section 6 against what each instance recorded. Every
 * problem found is listed (the caller shows the first few):
 * - every webhook-id was sent with one body on every attempt, and got a 2xx at least once;
 * - per instance, sequences are 1..n without a gap, each with exactly one webhook-id, each body
 *   naming the instance, one kind of item only, 1 to `batchMax` items, and (with `secret`) signed;
 * - the items of the instance's notifications in sequence order are exactly what it recorded, in
 *   record order (kind, id, ack status, message text when recorded): so nothing was lost, nothing
 *   travelled in two notifications, and nothing was reordered;
 * - no request went to a path of no instance.
 */
export function checkNotifications(
  received: Received[],
  instances: CheckedInstance[],
  batchMax: number,
): { problems: string[]; figures: NotificationFigures } {
  const problems: string[] = [];
  const figures: NotificationFigures = { notifications: 0, items: 0, largest: 0, batched: 0 };
  const byId = new Map<string, Received[]>();
  for (const r of received) byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
  for (const [webhookId, attempts] of byId) {
    if (new Set(attempts.map((a) => a.rawBody)).size !== 1)
      problems.push(`webhook-id ${webhookId} was sent with different bodies`);
    if (new Set(attempts.map((a) => a.path)).size !== 1)
      problems.push(`webhook-id ${webhookId} was sent to several paths`);
    if (!attempts.some((a) => a.delivered))
      problems.push(`webhook-id ${webhookId} (sequence ${attempts[0].json?.sequence}) never got a 2xx`);
  }
  const paths = new Set(instances.map((i) => i.path));
  const strays = received.filter((r) => !paths.has(r.path));
  if (strays.length) problems.push(`${strays.length} requests to paths of no instance, e.g. ${strays[0].path}`);

  for (const instance of instances) {
    const webhook = instance.secret === undefined ? undefined : new Webhook(instance.secret);
    const bySequence = new Map<number, Map<string, Received>>(); // sequence -> webhook-id -> first attempt
    for (const r of received) {
      if (r.path !== instance.path) continue;
      const sequence = r.json?.sequence;
      if (webhook) {
        try {
          webhook.verify(r.rawBody, r.headers as Record<string, string>);
        } catch {
          problems.push(`${instance.path}: a request with a bad signature (sequence ${sequence})`);
        }
      }
      if (r.json?.instanceId !== instance.instanceid)
        problems.push(`${instance.path}: a body names instance ${r.json?.instanceId}`);
      if (typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1) {
        problems.push(`${instance.path}: a body without a valid sequence: ${r.rawBody.slice(0, 120)}`);
        continue;
      }
      const ids = bySequence.get(sequence) ?? new Map<string, Received>();
      if (!ids.has(r.webhookId)) ids.set(r.webhookId, r);
      bySequence.set(sequence, ids);
    }
    const n = bySequence.size;
    const gaps = Array.from({ length: n }, (_, k) => k + 1).filter((s) => !bySequence.has(s));
    if (gaps.length) problems.push(`${instance.path}: ${n} sequences seen, but not ${gaps.slice(0, 10).join(', ')}`);

    // The items in sequence order; a sequence created twice contributes both, so that it also shows as a duplicate.
    const carried: Array<{ kind?: string; payload: Payload; sequence: number }> = [];
    for (const sequence of [...bySequence.keys()].sort((a, b) => a - b)) {
      const ids = bySequence.get(sequence)!;
      if (ids.size > 1)
        problems.push(
          `${instance.path}: sequence ${sequence} was created ${ids.size} times (webhook-ids ${[...ids.keys()].join(', ')})`,
        );
      for (const first of ids.values()) {
        const { kind, items } = itemsOf(first.json);
        if (!kind)
          problems.push(
            `${instance.path}: sequence ${sequence} mixes messages and acks, or carries neither: ${first.rawBody.slice(0, 120)}`,
          );
        if (items.length < 1 || items.length > batchMax)
          problems.push(
            `${instance.path}: sequence ${sequence} carries ${items.length} items (1 to ${batchMax} allowed)`,
          );
        figures.notifications += 1;
        figures.items += items.length;
        figures.largest = Math.max(figures.largest, items.length);
        if (items.length > 1) figures.batched += 1;
        for (const payload of items) carried.push({ kind, payload, sequence });
      }
    }
    const recorded = instance.recorded;
    if (carried.length !== recorded.length)
      problems.push(`${instance.path}: notifications carry ${carried.length} items, ${recorded.length} were recorded`);
    for (let k = 0; k < Math.max(carried.length, recorded.length); k++) {
      const got = carried[k];
      const want = recorded[k];
      const same =
        got !== undefined &&
        want !== undefined &&
        got.kind === want.kind &&
        got.payload.id === want.id &&
        got.payload.status === want.status &&
        (want.body === undefined || got.payload.body === want.body);
      if (!same) {
        problems.push(
          `${instance.path}: item ${k + 1} is ${describeItem(got?.kind, got?.payload)} (sequence ${got?.sequence}), recorded ${describeItem(want?.kind, want)}`,
        );
        break; // everything after the first difference differs too
      }
    }
  }
  const perInstance = figures.notifications;
  if (perInstance !== byId.size)
    problems.push(
      `${byId.size} webhook-ids were sent, ${perInstance} distinct notifications found per instance and sequence`,
    );
  return { problems, figures };
}
