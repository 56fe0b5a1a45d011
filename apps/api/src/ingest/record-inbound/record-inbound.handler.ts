import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PersonalData, recordAck, recordMessage, UnknownInstance } from '@gw/application';
import { Codes, Refusal } from '@gw/contract';
import type { EventStore } from '@gw/event-store';
import { Clock } from '../../shared/clock';
import { IngestCapacity } from '../ingest-capacity';
import { EVENT_STORE } from '../../shared/tokens';
import { RecordInboundCommand } from './record-inbound.command';

@CommandHandler(RecordInboundCommand)
export class RecordInboundHandler implements ICommandHandler<RecordInboundCommand, void> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly personalData: PersonalData,
    private readonly capacity: IngestCapacity,
  ) {}

  async execute({ instanceId, inbound }: RecordInboundCommand): Promise<void> {
    const release = this.capacity.admit();
    try {
      if ('message' in inbound)
        await recordMessage(this.store, this.personalData, instanceId, inbound.message, this.clock.now());
      else await recordAck(this.store, this.personalData, instanceId, inbound.ack, this.clock.now());
    } catch (error) {
      if (!(error instanceof UnknownInstance)) throw error;
      throw new Refusal([{ code: Codes.NoSuchInstance, field: 'instanceid', message: 'no such instance' }]);
    } finally {
      release();
    }
  }
}
