export class ChangeWebhookCommand {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    /** A URL to register, or '' to switch delivery off. */
    readonly webhookUrl: string,
  ) {}
}

export interface ChangeWebhookResult {
  webhookUrl: string;
  enabled: boolean;
  signingSecret?: string;
}
