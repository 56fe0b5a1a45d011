import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { SetInstanceLabelCommand, type SetInstanceLabelResult } from './set-instance-label.command';

/** docs/api.md 13.1: sets the label, or removes it when empty; the same label records nothing. */
@CommandHandler(SetInstanceLabelCommand)
export class SetInstanceLabelHandler implements ICommandHandler<SetInstanceLabelCommand, SetInstanceLabelResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ email, apiKey, instanceId, label }: SetInstanceLabelCommand): Promise<SetInstanceLabelResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    const { state } = await this.runner.instances.handle(instanceId, {
      type: 'SetInstanceLabel',
      data: { accountId, label, now: this.clock.now() },
    });
    if (state.status !== 'created') throw new Error('labelled instance has no state');
    return { instanceid: state.instanceId, label: state.label };
  }
}
