import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { arrayOf, integer, object, text, type Schema } from '../../openapi/json-schema';
import { GetUsageDto } from './get-usage.dto';
import { GetUsageHandler } from './get-usage.handler';
import { GetUsageQuery, type UsageCounts, type UsageDay, type UsageResult } from './get-usage.query';

const counters = {
  messages: integer('messages recorded'),
  acks: integer('acks recorded'),
  notificationsDelivered: integer('notifications answered 2xx, by the UTC day of the attempt'),
  attemptsFailed: integer('failed delivery attempts, by the UTC day of the attempt'),
};
const totals: Schema<UsageCounts> = object<UsageCounts>(counters, "the account's totals over the range");
const day = object<UsageDay>({ instanceid: text(), day: text('YYYY-MM-DD, UTC'), ...counters });

/** docs/api.md 13.3. */
export const getUsage = operation({
  handler: GetUsageHandler,
  routes: [
    route({
      name: 'getUsage',
      host: 'account',
      path: '/getUsage',
      methods: ['GET'],
      dto: GetUsageDto,
      build: (p) => new GetUsageQuery(p.email, p.apikey, p.from, p.to, p.instanceid || undefined),
    }),
  ],
  answer: {
    summary: "The account's usage per instance and UTC day, and its totals (13.3); `instanceid` narrows it to one",
    fields: object<UsageResult>({
      from: text('first UTC day answered for, YYYY-MM-DD'),
      to: text('last UTC day answered for, YYYY-MM-DD'),
      usage: arrayOf(day, 'each instance (in listInstances order) and day with activity, by day'),
      totals,
    }),
    refusals: [Codes.AccountAuthFailed, Codes.NoSuchInstance],
  },
});
