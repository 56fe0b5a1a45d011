import { operation, route } from '../../http/operation';
import { RecordInboundCommand } from './record-inbound.command';
import { AckDto, MessageDto } from './record-inbound.dto';
import { RecordInboundHandler } from './record-inbound.handler';

/** docs/api.md section 6: the gateway records a message or an ack; 202 once it is durably recorded.
 * The ingest host is internal, so it is not described in the OpenAPI documents. */
export const recordInbound = operation({
  handler: RecordInboundHandler,
  routes: [
    route({
      name: 'recordMessage',
      host: 'internal',
      path: '/instances/:instanceid/messages',
      methods: ['POST'],
      dto: MessageDto,
      build: (m, path) =>
        new RecordInboundCommand(path['instanceid'], {
          message: {
            id: m.id,
            chatId: m.chatId,
            from: m.from ?? '',
            fromMe: m.fromMe ?? false,
            senderName: m.senderName ?? '',
            // The contract's default; an empty type says no more than a missing one.
            type: m.type || 'chat',
            body: m.body ?? '',
            time: m.time,
          },
        }),
      status: 202,
    }),
    route({
      name: 'recordAck',
      host: 'internal',
      path: '/instances/:instanceid/acks',
      methods: ['POST'],
      dto: AckDto,
      build: (a, path) =>
        new RecordInboundCommand(path['instanceid'], {
          ack: { id: a.id, chatId: a.chatId, status: a.status, time: a.time },
        }),
      status: 202,
    }),
  ],
});
