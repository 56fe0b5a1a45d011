import { LRUCache } from 'lru-cache';
import type { OpenNotification } from '@gw/domain-notifications';
import { isoNow } from './clock';
import type { DueInstance } from './fair-scheduler';
import { Stopping } from './notification-writer';
import type { ProcessorParts } from './processor-parts';

const MAX_TIMER_MS = 2 ** 31 - 1;

/** The moments the loop finds due, handed to the processor, which asks the workflow about them. */
export interface DueWork {
  attemptDue(instanceId: string, notification: OpenNotification): Promise<void>;
  noticesDue(instanceId: string): Promise<void>;
}

/**
 * When the notifier acts, as opposed to what it does (the processor): in each turn it has the batcher
 * make notifications of waiting traffic, starts the attempts that are due and that the FairScheduler
 * gives a slot (docs/api.md section 11; one request in flight per instance), and every
 * `noticeCheckMs` looks for instance notices due; then it sets one timer for the next moment
 * something falls due. A turn runs soon after `wake`, which whatever may have made work due calls.
 */
export class DeliveryLoop {
  /** Instances with an attempt in flight. */
  private readonly sending = new Set<string>();
  private readonly attempts = new Set<Promise<void>>();
  private readonly noticing = new Set<string>();
  private readonly origins = new Origins();
  private noticesLookedAt = Number.NEGATIVE_INFINITY;
  private running = false;
  private stopped = false;
  private turnQueued = false;
  private timer?: NodeJS.Timeout;
  /** The moment `timer` wakes the loop for (infinite: no timer). */
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly parts: ProcessorParts,
    private readonly noticeCheckMs: number,
    private readonly work: DueWork,
  ) {}

  get started(): boolean {
    return this.running;
  }

  get requestsInFlight(): number {
    return this.sending.size;
  }

  /** Whether a notification of the instance is on its way: being sent, or made and not attempted yet. */
  onItsWay(instanceId: string): boolean {
    return this.sending.has(instanceId) || this.parts.model.hasFreshNotification(instanceId);
  }

  start(): void {
    this.running = true;
    this.wake();
  }

  /** Whether `stop` was called: no new work starts. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Looks for work soon; cheap to call often. */
  wake(): void {
    if (this.turnQueued || !this.running || this.stopped) return;
    this.turnQueued = true;
    setImmediate(() => {
      this.turnQueued = false;
      this.turn();
    });
  }

  /** Stops starting work and waits for the attempts in flight, at most `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.attempts]),
      new Promise((resolve) => (timeout = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timeout);
  }

  private turn(): void {
    if (this.stopped) return;
    const now = this.parts.clock.now();
    if (this.parts.batcher.hasWaiting) this.makeNotifications();
    const next = Math.min(this.startDueAttempts(now), this.lookForNotices(now));
    // Most turns find the same next moment (the next look for notices): its timer is left running.
    if (next === this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next;
    if (next === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(
      () => {
        this.timerAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.min(Math.max(next - now, 1), MAX_TIMER_MS),
    );
  }

  private makeNotifications(): void {
    this.parts.batcher
      .flush((instanceId) => this.onItsWay(instanceId))
      .then(
        (made) => made && this.wake(),
        (error: unknown) => {
          if (!(error instanceof Stopping)) this.parts.logger.error('could not create notifications', { error });
        },
      );
  }

  /** Starts the attempts due that the scheduler gives a slot; returns when the next one falls due. */
  private startDueAttempts(now: number): number {
    const { model, scheduler } = this.parts;
    const due = new Map<string, { slot: DueInstance; notification: OpenNotification }>();
    // Only what is due: the rest waits in the model's order of due times (DueIndex).
    for (const { instanceId, notification: next } of model.dueAttempts(now)) {
      if (this.sending.has(instanceId)) continue;
      // Full: a finishing attempt wakes the loop again.
      if (scheduler.full) break;
      // Due, but its account or its endpoint is at its share: it waits for one of their attempts to
      // finish, which wakes the loop again. Left out here, since choose could not pick it this turn
      // (shares only fill up while it chooses); one account's backlog then costs a turn little.
      const instance = model.instance(instanceId);
      const accountId = instance.status === 'none' ? '' : instance.accountId;
      if (!scheduler.accountFree(accountId)) continue;
      const endpoint = instance.status === 'created' ? this.origins.of(instance.webhookUrl) : '';
      if (!scheduler.endpointFree(endpoint)) continue;
      due.set(instanceId, { slot: { instanceId, accountId, endpoint }, notification: next });
    }
    if (due.size > 0)
      for (const slot of scheduler.choose([...due.values()].map((d) => d.slot)))
        this.begin(slot, due.get(slot.instanceId)!.notification);
    return model.nextAttemptAfterDue();
  }

  private begin(slot: DueInstance, notification: OpenNotification): void {
    const { instanceId } = slot;
    this.sending.add(instanceId);
    const attempt = this.work
      .attemptDue(instanceId, notification)
      .catch((error: unknown) => {
        if (!(error instanceof Stopping))
          this.parts.logger.error('delivery attempt failed unexpectedly', { instanceId, error });
      })
      .finally(() => {
        this.parts.scheduler.finished(slot);
        this.sending.delete(instanceId);
        this.attempts.delete(attempt);
        this.wake();
      });
    this.attempts.add(attempt);
  }

  /** Every `noticeCheckMs`, the instances with a notice due; returns when to look next. */
  private lookForNotices(now: number): number {
    if (now >= this.noticesLookedAt + this.noticeCheckMs) {
      this.noticesLookedAt = now;
      for (const instanceId of this.parts.notices.due(now))
        if (!this.noticing.has(instanceId)) void this.notice(instanceId);
    }
    return this.noticesLookedAt + this.noticeCheckMs;
  }

  private async notice(instanceId: string): Promise<void> {
    this.noticing.add(instanceId);
    try {
      await this.work.noticesDue(instanceId);
    } catch (error) {
      // Left due: the next look tries again.
      if (!(error instanceof Stopping))
        this.parts.logger.error('could not create instance notices', { instanceId, error });
    } finally {
      this.noticing.delete(instanceId);
      this.parts.notices.update(instanceId, isoNow(this.parts.clock));
    }
  }
}

/** The origin of a URL (scheme, host and port, no user info), without parsing it whole: the loop
 * asks for it for every due instance. */
export function originOf(url: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)(?:[^@/?#]*@)?([^/?#]*)/.exec(url);
  return match ? `${match[1]}${match[2]}`.toLowerCase() : url;
}

/** Webhook URLs' origins as last worked out, for as many URLs as instances are usually due at once. */
class Origins {
  private readonly known = new LRUCache<string, string>({ max: 10_000 });

  of(url: string): string {
    let origin = this.known.get(url);
    if (origin === undefined) this.known.set(url, (origin = originOf(url)));
    return origin;
  }
}
