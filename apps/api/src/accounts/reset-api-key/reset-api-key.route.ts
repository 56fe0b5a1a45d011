import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { object, text } from '../../openapi/json-schema';
import { ResetApiKeyCommand, type ResetApiKeyResult } from './reset-api-key.command';
import { ResetApiKeyDto } from './reset-api-key.dto';
import { ResetApiKeyHandler } from './reset-api-key.handler';

/** docs/api.md 8.3. */
export const resetApiKey = operation({
  handler: ResetApiKeyHandler,
  routes: [
    route({
      name: 'resetApiKey',
      host: 'account',
      path: '/resetApiKey',
      methods: ['GET'],
      dto: ResetApiKeyDto,
      build: (p) => new ResetApiKeyCommand(p.email, p.apikey),
    }),
  ],
  answer: {
    summary: 'Issues a new account API key; the old one is refused from now on (8.3)',
    fields: object<ResetApiKeyResult>({ email: text(), apikey: text('the new API key, shown only in this answer') }),
    refusals: [Codes.AccountAuthFailed, Codes.ConcurrentChange],
  },
});
