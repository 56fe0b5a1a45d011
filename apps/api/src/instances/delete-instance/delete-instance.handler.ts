import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { DeleteInstanceCommand, type DeleteInstanceResult } from './delete-instance.command';

/** docs/api.md 8.1: the instance's token, delivery and ingest end with the answer; its history stays. */
@CommandHandler(DeleteInstanceCommand)
export class DeleteInstanceHandler implements ICommandHandler<DeleteInstanceCommand, DeleteInstanceResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ email, apiKey, instanceId }: DeleteInstanceCommand): Promise<DeleteInstanceResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    // The runner waits for the read models, so the token is refused by the very next request.
    const { state } = await this.runner.instances.handle(instanceId, {
      type: 'DeleteInstance',
      data: { accountId, now: this.clock.now() },
    });
    if (state.status !== 'deleted') throw new Error('deleted instance has no tombstone');
    return { instanceid: state.instanceId, deletedAt: state.deletedAt };
  }
}
