import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { object, text } from '../../openapi/json-schema';
import { ResetInstanceTokenCommand, type ResetInstanceTokenResult } from './reset-instance-token.command';
import { ResetInstanceTokenDto } from './reset-instance-token.dto';
import { ResetInstanceTokenHandler } from './reset-instance-token.handler';

/** docs/api.md 8.2. */
export const resetInstanceToken = operation({
  handler: ResetInstanceTokenHandler,
  routes: [
    route({
      name: 'resetInstanceToken',
      host: 'account',
      path: '/resetInstanceToken',
      methods: ['GET'],
      dto: ResetInstanceTokenDto,
      build: (p) => new ResetInstanceTokenCommand(p.email, p.apikey, p.instanceid),
    }),
  ],
  answer: {
    summary: 'Issues a new instance token; the old one is refused from now on (8.2)',
    fields: object<ResetInstanceTokenResult>({
      instanceid: text(),
      token: text('the new instance token, shown only in this answer'),
    }),
    refusals: [Codes.AccountAuthFailed, Codes.NoSuchInstance, Codes.ConcurrentChange],
  },
});
