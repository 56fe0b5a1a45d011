import { Codes } from '@gw/contract';
import { operation, route } from '../../http/operation';
import { instanceLabel } from '../../openapi/answer-fields';
import { object, text } from '../../openapi/json-schema';
import { SetInstanceLabelCommand, type SetInstanceLabelResult } from './set-instance-label.command';
import { SetInstanceLabelDto } from './set-instance-label.dto';
import { SetInstanceLabelHandler } from './set-instance-label.handler';

/** docs/api.md 13.1. */
export const setInstanceLabel = operation({
  handler: SetInstanceLabelHandler,
  routes: [
    route({
      name: 'setInstanceLabel',
      host: 'account',
      path: '/setInstanceLabel',
      methods: ['GET'],
      dto: SetInstanceLabelDto,
      build: (p) => new SetInstanceLabelCommand(p.email, p.apikey, p.instanceid, p.label),
    }),
  ],
  answer: {
    summary: "Sets the instance's label, or removes it when `label` is empty (13.1)",
    fields: object<SetInstanceLabelResult>({ instanceid: text(), label: instanceLabel }),
    refusals: [Codes.AccountAuthFailed, Codes.NoSuchInstance, Codes.ConcurrentChange],
  },
});
