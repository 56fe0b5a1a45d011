import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { object, text, timestamp } from '../../openapi/json-schema';
import { RenewInstanceCommand, type RenewInstanceResult } from './renew-instance.command';
import { RenewInstanceDto } from './renew-instance.dto';
import { RenewInstanceHandler } from './renew-instance.handler';

/** docs/api.md 4.2. */
export const renewInstance = operation({
  handler: RenewInstanceHandler,
  routes: [
    route({
      name: 'renewInstance',
      host: 'account',
      path: '/renewInstance',
      methods: ['GET'],
      dto: RenewInstanceDto,
      build: (p) => new RenewInstanceCommand(p.email, p.apikey, p.instanceid, p.packageid),
    }),
  ],
  answer: {
    summary: "Renews an instance: expiresAt = max(now, expiresAt) + the package's duration (4.2)",
    fields: object<RenewInstanceResult>({ instanceid: text(), packageid: text(), expiresAt: timestamp() }),
    refusals: [Codes.AccountAuthFailed, Codes.UnknownPackage, Codes.NoSuchInstance, Codes.ConcurrentChange],
  },
});
