import { createHash } from 'node:crypto';
import { WebhookReceiver, type Behaviour, type ReceivedRequest } from '@gw/testing';

/** What a notification carries, by docs/api.md section 6 (one item or a batch of several). */
interface NotificationBody {
  instanceId?: string;
  sequence?: number;
  messages?: Array<{ id?: string }>;
  ack?: Array<{ id?: string; status?: string }>;
}

/** The key of one notified item: `<instanceId> m:<message id>` or `<instanceId> a:<message id>:<status>`. */
export const messageKey = (instanceId: string, id: string) => `${instanceId} m:${id}`;
export const ackKey = (instanceId: string, id: string, status: string) => `${instanceId} a:${id}:${status}`;

/** When the client sent an item's ingest request and when it read the 202, on one counter (SoakLoad's
 * ticks): an item answered before another was sent was recorded before it. */
export interface IngestTimes {
  sent: number;
  answered: number;
}

/** One notification (one webhook-id), as first received: every later attempt must carry the same body. */
interface Seen {
  instanceId: string;
  sequence: number;
  bodyHash: string;
  items: string[];
  failures: number;
  delivered: boolean;
}

/**
 * The shared webhook receiver, answering 500 to about a third of the requests at once and 200 to
 * the rest, after up to `maxDelayMs`. One notification (one webhook-id) fails at most `maxFailures` times, so that with a
 * RETRY_SCHEDULE of more retries than that every notification is delivered before it would be
 * dead-lettered. It keeps what the soak checks and no more (no bodies, a hash of each): per
 * webhook-id its instance, sequence, item keys, failures and whether a 200 went out; per instance
 * the webhook-id of each sequence; per item the notification that carried it. As it goes it reports
 * a body that is neither messages nor acks (or both), more than `batchMax` items, an invalid
 * sequence, a webhook-id sent again with another body, a sequence given a second webhook-id, and an
 * item carried a second time; `check` does the rest at the end.
 * Each instance registers `/hook/<instanceid>`; a body naming another instance is a problem.
 */
export class FlakyReceiver {
  requests = 0;
  failedOnPurpose = 0;
  /** Distinct notifications (webhook-ids) that got a 200. */
  delivered = 0;
  /** Items in those notifications, each notification counted once. */
  deliveredItemCount = 0;
  readonly notifications = new Map<string, Seen>();
  readonly deliveredItems = new Set<string>();
  readonly problems: string[] = [];
  problemCount = 0;
  /** Per instance, the webhook-id of each sequence. */
  private readonly sequences = new Map<string, Map<number, string>>();
  /** Per item key, the webhook-id of the notification that carried it first. */
  private readonly carriedBy = new Map<string, string>();
  /** Keeps no record of its own: the soak runs for as long as it is told. */
  private readonly receiver = new WebhookReceiver<NotificationBody>({
    keep: false,
    choose: (request) => this.choose(request),
  });

  /** `maxDelayMs`: a 200 waits up to this long (uniformly), as a real receiver's work would, so that
   * traffic recorded meanwhile is batched into the instance's next notification. */
  constructor(
    private readonly maxFailures: number,
    private readonly batchMax: number,
    private readonly maxDelayMs = 0,
  ) {
    this.receiver.onDelivered = ({ webhookId }) => {
      const seen = this.notifications.get(webhookId)!;
      if (!seen.delivered) {
        this.delivered += 1;
        this.deliveredItemCount += seen.items.length;
      }
      seen.delivered = true;
      for (const item of seen.items) this.deliveredItems.add(item);
    };
  }

  private problem(text: string): void {
    this.problemCount += 1;
    if (this.problems.length < 40) this.problems.push(text);
  }

  start(): Promise<void> {
    return this.receiver.start();
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }

  url(instanceid: string): string {
    return this.receiver.url(`/hook/${instanceid}`);
  }

  /** Checks a request as it arrives, and answers 400 (a problem), 500 on purpose, or 200. */
  private choose({ path, webhookId, json: body, rawBody }: ReceivedRequest<NotificationBody>): Behaviour {
    this.requests += 1;
    const pathInstance = /^\/hook\/([^/]+)/.exec(path)?.[1];
    const items = body && pathInstance && body.instanceId === pathInstance ? this.items(body) : undefined;
    const sequence = body?.sequence;
    if (!webhookId || !items || typeof sequence !== 'number' || !Number.isInteger(sequence) || sequence < 1) {
      this.problem(`unexpected request to ${path} (webhook-id ${webhookId || 'none'}): ${rawBody.slice(0, 160)}`);
      return { kind: 'status', status: 400 };
    }
    const seen = this.seen(webhookId, pathInstance!, sequence, items, createHash('sha1').update(rawBody).digest('hex'));
    if (seen.failures < this.maxFailures && Math.random() < 1 / 3) {
      seen.failures += 1;
      this.failedOnPurpose += 1;
      return { kind: 'status', status: 500 };
    }
    return { kind: 'ok', delayMs: Math.floor(Math.random() * (this.maxDelayMs + 1)) };
  }

  /** The notification of `webhookId`, registered with its sequence and items when first seen. */
  private seen(webhookId: string, instanceId: string, sequence: number, items: string[], bodyHash: string): Seen {
    const known = this.notifications.get(webhookId);
    if (known) {
      if (known.bodyHash !== bodyHash)
        this.problem(
          `webhook-id ${webhookId} (sequence ${known.sequence} of ${instanceId}) was sent again with another body`,
        );
      return known;
    }
    const seen: Seen = { instanceId, sequence, bodyHash, items, failures: 0, delivered: false };
    this.notifications.set(webhookId, seen);
    if (items.length > this.batchMax)
      this.problem(
        `${instanceId}: sequence ${sequence} carries ${items.length} items, NOTIFICATION_BATCH_MAX is ${this.batchMax}`,
      );
    const sequences = this.sequences.get(instanceId) ?? new Map<number, string>();
    this.sequences.set(instanceId, sequences);
    const other = sequences.get(sequence);
    if (other !== undefined)
      this.problem(`${instanceId}: sequence ${sequence} was created twice (webhook-ids ${other}, ${webhookId})`);
    else sequences.set(sequence, webhookId);
    for (const item of items) {
      const first = this.carriedBy.get(item);
      if (first !== undefined) this.problem(`${item} was carried twice (webhook-ids ${first}, ${webhookId})`);
      else this.carriedBy.set(item, webhookId);
    }
    return seen;
  }

  /**
   * At the end, once everything is delivered: every instance's sequences are 1..n, each notification
   * got a 200, and its notifications' items in sequence order are what was accepted for it, in an
   * order the client's own timing allows. Ingests to one instance run concurrently, so the client
   * knows the record order only partly: an item whose 202 came before another was sent must come
   * first. Items never carried at all are the soak's "never delivered" check.
   */
  check(expected: ReadonlyMap<string, IngestTimes>): string[] {
    const problems: string[] = [];
    for (const [instanceId, sequences] of this.sequences) {
      const n = sequences.size;
      const gaps = Array.from({ length: n }, (_, k) => k + 1).filter((s) => !sequences.has(s));
      if (gaps.length) problems.push(`${instanceId}: ${n} sequences seen, but not ${gaps.slice(0, 10).join(', ')}`);
      let latest = { sent: -1, key: '' }; // the item sent last among those carried so far
      for (const sequence of [...sequences.keys()].sort((a, b) => a - b)) {
        const webhookId = sequences.get(sequence)!;
        const notification = this.notifications.get(webhookId)!;
        if (!notification.delivered)
          problems.push(`${instanceId}: sequence ${sequence} (webhook-id ${webhookId}) never got a 200`);
        for (const item of notification.items) {
          const times = expected.get(item);
          if (!times) {
            problems.push(`${item} was notified (sequence ${sequence}) but never accepted`);
            continue;
          }
          if (times.answered < latest.sent)
            problems.push(
              `${item} (sequence ${sequence}) was accepted before ${latest.key} was sent, but comes after it`,
            );
          if (times.sent > latest.sent) latest = { sent: times.sent, key: item };
        }
      }
    }
    return problems;
  }

  /** The item keys of a notification; undefined when it is neither a message nor an ack batch. */
  private items(body: NotificationBody): string[] | undefined {
    const instanceId = body.instanceId!;
    if (Array.isArray(body.messages) && body.messages.length && !body.ack)
      return body.messages.map((m) => messageKey(instanceId, String(m.id)));
    if (Array.isArray(body.ack) && body.ack.length && !body.messages)
      return body.ack.map((a) => ackKey(instanceId, String(a.id), String(a.status)));
    return undefined;
  }
}
