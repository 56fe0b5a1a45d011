import { Command } from '@nestjs/cqrs';
import type { ConnectionState } from '@gw/domain-instances';

/** docs/api.md 13.2. */
export class ReportStateCommand extends Command<void> {
  constructor(
    readonly instanceId: string,
    readonly state: ConnectionState,
    /** Unix seconds: when the state began, as the gateway says. */
    readonly time: number,
  ) {
    super();
  }
}
