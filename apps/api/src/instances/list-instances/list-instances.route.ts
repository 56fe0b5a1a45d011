import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { instanceStatus, kinds, signingSecret } from '../../openapi/answer-fields';
import { arrayOf, boolean, object, text, timestamp } from '../../openapi/json-schema';
import { ListInstancesDto } from './list-instances.dto';
import { ListInstancesHandler } from './list-instances.handler';
import { ListInstancesQuery, type InstanceSummary, type ListInstancesResult } from './list-instances.query';

const summary = object<InstanceSummary>({
  instanceid: text(),
  packageid: text(),
  createdAt: timestamp(),
  expiresAt: timestamp(),
  status: instanceStatus,
  webhookUrl: text('"" when none is registered'),
  webhookEnabled: boolean(),
  events: kinds,
  signingSecret,
});

/** docs/api.md 4.3. */
export const listInstances = operation({
  handler: ListInstancesHandler,
  routes: [
    route({
      name: 'listInstances',
      host: 'account',
      path: '/listInstances',
      methods: ['GET'],
      dto: ListInstancesDto,
      build: (p) => new ListInstancesQuery(p.email, p.apikey),
    }),
  ],
  answer: {
    summary: "Lists the account's instances, oldest first (4.3)",
    fields: object<ListInstancesResult>({ instances: arrayOf(summary, 'oldest first') }),
    refusals: [Codes.AccountAuthFailed],
  },
});
