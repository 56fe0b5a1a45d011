export class GetWebhookStatusQuery {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {}
}

export interface WebhookStatusResult {
  webhookUrl: string;
  enabled: boolean;
  instanceStatus: 'active' | 'expired';
  disabledReason?: string;
  signingSecret?: string;
}
