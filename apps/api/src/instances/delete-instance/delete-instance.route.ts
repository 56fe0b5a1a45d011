import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { object, text, timestamp } from '../../openapi/json-schema';
import { DeleteInstanceCommand, type DeleteInstanceResult } from './delete-instance.command';
import { DeleteInstanceDto } from './delete-instance.dto';
import { DeleteInstanceHandler } from './delete-instance.handler';

/** docs/api.md 8.1. */
export const deleteInstance = operation({
  handler: DeleteInstanceHandler,
  routes: [
    route({
      name: 'deleteInstance',
      host: 'account',
      path: '/deleteInstance',
      methods: ['GET'],
      dto: DeleteInstanceDto,
      build: (p) => new DeleteInstanceCommand(p.email, p.apikey, p.instanceid),
    }),
  ],
  answer: {
    summary: 'Deletes an instance; its history stays in the log (8.1)',
    fields: object<DeleteInstanceResult>({ instanceid: text(), deletedAt: timestamp() }),
    refusals: [Codes.AccountAuthFailed, Codes.NoSuchInstance, Codes.ConcurrentChange],
  },
});
