import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { object, text, timestamp } from '../../openapi/json-schema';
import { CreateInstanceCommand, type CreateInstanceResult } from './create-instance.command';
import { CreateInstanceDto } from './create-instance.dto';
import { CreateInstanceHandler } from './create-instance.handler';

/** docs/api.md 4.1, served as the spec names it: `/newInstance`. */
export const createInstance = operation({
  handler: CreateInstanceHandler,
  routes: [
    route({
      name: 'createInstance',
      host: 'account',
      path: '/newInstance',
      methods: ['GET'],
      dto: CreateInstanceDto,
      build: (p) => new CreateInstanceCommand(p.email, p.token, p.packageid, p.label || undefined),
    }),
  ],
  answer: {
    summary: 'Creates an instance under a package (4.1); `token` carries the account API key here',
    fields: object<CreateInstanceResult>({
      instanceid: text(),
      token: text('the instance token, shown only in this answer'),
      packageid: text(),
      createdAt: timestamp(),
      expiresAt: timestamp(),
    }),
    refusals: [Codes.AccountAuthFailed, Codes.UnknownPackage, Codes.ConcurrentChange],
  },
});
