import { Query } from '@nestjs/cqrs';
import type { DeliveryAttemptRow } from '@gw/projections';

export class GetWebhookLogsQuery extends Query<WebhookLogsResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly limit: number,
  ) {
    super();
  }
}

export interface WebhookLogsResult {
  attempts: DeliveryAttemptRow[];
}
