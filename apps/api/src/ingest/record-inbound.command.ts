import type { Ack, Message } from '@gw/domain-inbox';

export class RecordInboundCommand {
  constructor(
    readonly instanceId: string,
    readonly inbound: { message: Message } | { ack: Ack },
  ) {}
}
