import { Command } from '@nestjs/cqrs';
export class RedeliverCommand extends Command<RedeliverResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
    readonly from: number,
    /** null: up to the instance's last notification. */
    readonly to: number | null,
  ) {
    super();
  }
}

/** docs/api.md 8.8: how many notifications were queued again. */
export interface RedeliverResult {
  queued: number;
}
