import { Command } from '@nestjs/cqrs';
import type { Ack, Message } from '@gw/domain-inbox';

export class RecordInboundCommand extends Command<void> {
  constructor(
    readonly instanceId: string,
    readonly inbound: { message: Message } | { ack: Ack },
  ) {
    super();
  }
}
