import { WebhookReceiver, type Behaviour, type ReceivedRequest } from '@gw/testing';

export interface Notification {
  instanceId?: string;
  sequence?: number;
  messages?: Array<{ id: string }>;
  ack?: Array<{ id: string; status: string }>;
}

/** One request as the chaos receiver saw it; its body a notification of docs/api.md section 6. */
export type Received = ReceivedRequest<Notification>;

/**
 * The shared webhook receiver, answering each request as `choose` decides from its webhook-id and
 * path, with running counts of what got a 2xx (`Received.delivered`), kept as it goes for polling.
 */
export class ChaosReceiver extends WebhookReceiver<Notification> {
  /** Webhook-ids that got a 2xx at least once. */
  readonly deliveredIds = new Set<string>();
  /** Messages and acks in the notifications of `deliveredIds`, each notification counted once (a
   * notification may carry several: docs/api.md section 6, batching). */
  deliveredItems = 0;

  constructor(choose: (webhookId: string, path: string) => Behaviour) {
    super({ choose: (request) => choose(request.webhookId, request.path) });
    this.onDelivered = ({ webhookId, json }) => {
      if (this.deliveredIds.has(webhookId)) return;
      this.deliveredIds.add(webhookId);
      this.deliveredItems += (json?.messages?.length ?? 0) + (json?.ack?.length ?? 0);
    };
  }
}
