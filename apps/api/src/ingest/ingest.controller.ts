import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ContractParams } from '../http/contract-params';
import { AckDto, MessageDto } from './ingest.dto';
import { RecordInboundCommand } from './record-inbound.command';

/** The internal ingest host (CONTRACT section 6): the gateway records traffic here. The bearer
 * token is checked by the listener before the body is read. 202 once durably recorded. */
@Controller('internal/instances/:instanceid')
export class IngestController {
  constructor(private readonly commands: CommandBus) {}

  @Post('messages')
  @HttpCode(202)
  async message(@Param('instanceid') instanceId: string, @ContractParams() m: MessageDto) {
    await this.commands.execute(
      new RecordInboundCommand(instanceId, {
        message: {
          id: m.id,
          chatId: m.chatId,
          from: m.from ?? '',
          fromMe: m.fromMe ?? false,
          senderName: m.senderName ?? '',
          type: m.type ?? 'chat',
          body: m.body ?? '',
          time: m.time,
        },
      }),
    );
    return { success: true };
  }

  @Post('acks')
  @HttpCode(202)
  async ack(@Param('instanceid') instanceId: string, @ContractParams() a: AckDto) {
    await this.commands.execute(new RecordInboundCommand(instanceId, { ack: { id: a.id, chatId: a.chatId, status: a.status, time: a.time } }));
    return { success: true };
  }
}
