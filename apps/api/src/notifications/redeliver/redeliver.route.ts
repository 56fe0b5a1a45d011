import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { integer, object } from '../../openapi/json-schema';
import { RedeliverCommand, type RedeliverResult } from './redeliver.command';
import { RedeliverDto } from './redeliver.dto';
import { RedeliverHandler } from './redeliver.handler';

/** docs/api.md 8.8. */
export const redeliver = operation({
  handler: RedeliverHandler,
  routes: [
    route({
      name: 'redeliver',
      host: 'instance',
      path: '/redeliver',
      methods: ['GET', 'POST'],
      dto: RedeliverDto,
      build: (p) => new RedeliverCommand(p.instanceid, p.token, Number(p.from), p.to == null ? null : Number(p.to)),
    }),
  ],
  answer: {
    summary: 'Queues notifications again, by sequence range, with a new retry schedule (8.8)',
    fields: object<RedeliverResult>({ queued: integer('how many notifications were queued again') }),
    // 0002 here is a range wider than 1000 that only the domain can see (no `to`: up to the last).
    refusals: [
      Codes.InstanceAuthFailed,
      Codes.MalformedParameter,
      Codes.InstanceExpired,
      Codes.DeliveryOff,
      Codes.ConcurrentChange,
    ],
  },
});
