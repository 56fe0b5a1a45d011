import type { DeliveryAttemptRow } from '@gw/projections';

export class GetWebhookLogsQuery {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly limit: number,
  ) {}
}

export interface WebhookLogsResult {
  attempts: DeliveryAttemptRow[];
}
