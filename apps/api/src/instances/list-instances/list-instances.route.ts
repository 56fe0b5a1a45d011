import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { connectionState, instanceLabel, instanceStatus, kinds, signingSecret } from '../../openapi/answer-fields';
import { arrayOf, boolean, nullable, object, text, timestamp } from '../../openapi/json-schema';
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
  label: instanceLabel,
  state: connectionState,
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
      build: (p) =>
        new ListInstancesQuery(p.email, p.apikey, {
          limit: p.limit === undefined ? undefined : Number(p.limit),
          // An empty after is no cursor: the first page (as a client that sends back a null next).
          after: p.after === '' ? undefined : p.after,
          status: p.status,
          // An empty label filters nothing.
          label: p.label === '' ? undefined : p.label,
        }),
    }),
  ],
  answer: {
    summary: "Lists the account's instances, oldest first, a page at a time with `limit` and `after` (4.3, 13.1)",
    fields: object<ListInstancesResult>({
      instances: arrayOf(summary, 'oldest first'),
      next: nullable(text('the last instanceid of this page when more remain (pass it as `after`), else null')),
    }),
    refusals: [Codes.AccountAuthFailed, Codes.NoSuchInstance],
  },
});
