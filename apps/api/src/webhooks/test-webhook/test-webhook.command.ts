import { Command } from '@nestjs/cqrs';
export class TestWebhookCommand extends Command<TestWebhookResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    /** Where to send the test; '' means the registered URL. */
    readonly webhookUrl: string,
  ) {
    super();
  }
}

/** docs/api.md 8.6: how the one attempt went. `delivered` is a 2xx; `status` 0 means no answer came,
 * and `error` then says why. */
export interface TestWebhookResult {
  delivered: boolean;
  status: number;
  durationMs: number;
  error: string;
}
