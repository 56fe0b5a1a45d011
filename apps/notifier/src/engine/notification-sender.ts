import { setTimeout as sleep } from 'node:timers/promises';
import { openHeaders, PersonalDataUnreadable, type PersonalData, type SecretBox } from '@gw/application';
import {
  isNotificationEvent,
  notificationsStreamName,
  type NotificationBody,
  type OpenNotification,
} from '@gw/domain-notifications';
import { EventStoreUnavailableError, type EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { retryDelayMs } from '@gw/process';
import {
  UNREADABLE_PERSONAL_DATA_ATTEMPT,
  UNREADABLE_SECRET_ATTEMPT,
  type AttemptResult,
  type Delivery,
  type HeaderList,
} from '@gw/webhook-delivery';
import { Stopping } from './notification-writer';

/** A notification redelivered by reference whose NotificationCreated is not where it says (never
 * expected: notifications streams are never truncated). The attempt is recorded as failed. */
class BodyNotFound extends Error {}

/** What POSTs a signed body (the WebhookSender; a stand-in in unit specs). */
export interface WebhookPost {
  send(delivery: Delivery): Promise<AttemptResult>;
}

/**
 * One attempt of a notification: opens the signing secrets, the receiver's headers and the body
 * right before the POST and keeps none of them (the model, its snapshots and the log hold sealed values), then POSTs. A secret or
 * a body that does not open is a failed attempt (so that it shows in getWebhookLogs; an operator
 * fixes the key), never a crash.
 */
export class NotificationSender {
  constructor(
    private readonly post: WebhookPost,
    private readonly secrets: SecretBox,
    private readonly personalData: PersonalData,
    private readonly store: EventStore,
    private readonly logger: Logger,
    private readonly stopping: () => boolean,
  ) {}

  async send(
    instanceId: string,
    url: string,
    encryptedSecrets: readonly string[],
    sealedHeaders: string | null,
    notification: OpenNotification,
  ): Promise<AttemptResult> {
    let signingSecrets: string[];
    let headers: HeaderList;
    try {
      signingSecrets = encryptedSecrets.map((sealed) => this.secrets.open(sealed));
      headers = openHeaders(this.secrets, sealedHeaders);
    } catch {
      return UNREADABLE_SECRET_ATTEMPT;
    }
    const body = await this.openBody(instanceId, notification);
    if (body === undefined) return UNREADABLE_PERSONAL_DATA_ATTEMPT;
    return this.post.send({ url, webhookId: notification.webhookId, body, signingSecrets, headers });
  }

  /**
   * The body as POSTed. A field whose data key was erased is sent as null (docs/api.md section 9).
   * Undefined when a field fails authentication; an outage of the keys' store is waited out, as the
   * writer waits out one, until the notifier stops.
   */
  private async openBody(instanceId: string, notification: OpenNotification): Promise<string | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        const body = notification.body ?? (await this.createdBody(instanceId, notification));
        return JSON.stringify(await this.personalData.openBody(body, null));
      } catch (error) {
        if (error instanceof PersonalDataUnreadable || error instanceof BodyNotFound) {
          // The reason names no value: which key or form failed, for the operator (the receiver's log says less).
          this.logger.error('a notification body does not open; the attempt is recorded as failed', {
            webhookId: notification.webhookId,
            reason: error.message,
          });
          return undefined;
        }
        if (!(error instanceof EventStoreUnavailableError)) throw error;
        if (this.stopping()) throw new Stopping();
        this.logger.warn('store unavailable while opening a notification body; retrying', {
          webhookId: notification.webhookId,
          error,
        });
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  /** The body of a notification redelivered by reference, read from its NotificationCreated (one
   * event) for this attempt only; the model does not keep it. */
  private async createdBody(
    instanceId: string,
    { webhookId, createdRevision }: OpenNotification,
  ): Promise<NotificationBody> {
    if (createdRevision === undefined)
      throw new BodyNotFound(`notification ${webhookId} has neither a body nor a reference to one`);
    const [event] = await this.store.readStream(notificationsStreamName(instanceId), {
      fromRevision: BigInt(createdRevision),
      maxCount: 1,
    });
    const created = event && isNotificationEvent(event) && event.type === 'NotificationCreated' ? event : undefined;
    if (!created || created.data.webhookId !== webhookId)
      throw new BodyNotFound(`notification ${webhookId} is not at revision ${createdRevision} of its stream`);
    return created.data.body;
  }
}
