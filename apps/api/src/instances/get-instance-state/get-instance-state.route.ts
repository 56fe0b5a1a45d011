import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { connectionState } from '../../openapi/answer-fields';
import { nullable, object, timestamp } from '../../openapi/json-schema';
import { GetInstanceStateDto } from './get-instance-state.dto';
import { GetInstanceStateHandler } from './get-instance-state.handler';
import { GetInstanceStateQuery, type InstanceStateResult } from './get-instance-state.query';

/** docs/api.md 13.2. */
export const getInstanceState = operation({
  handler: GetInstanceStateHandler,
  routes: [
    route({
      name: 'getInstanceState',
      host: 'instance',
      path: '/getInstanceState',
      methods: ['GET', 'POST'],
      dto: GetInstanceStateDto,
      build: (p) => new GetInstanceStateQuery(p.instanceid, p.token),
    }),
  ],
  answer: {
    summary: 'The connection state the gateway reported last, and since when (13.2)',
    fields: object<InstanceStateResult>({
      state: connectionState,
      since: nullable(timestamp('when the state began, as the gateway reported; null before any report')),
    }),
    refusals: [Codes.InstanceAuthFailed],
  },
});
