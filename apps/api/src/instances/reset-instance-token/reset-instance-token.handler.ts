import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { hashSecret, newSecret } from '@gw/application';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { ResetInstanceTokenCommand, type ResetInstanceTokenResult } from './reset-instance-token.command';

/** docs/api.md 8.2: a new instance token; the old one is refused from the answer on. */
@CommandHandler(ResetInstanceTokenCommand)
export class ResetInstanceTokenHandler implements ICommandHandler<ResetInstanceTokenCommand, ResetInstanceTokenResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  async execute({ email, apiKey, instanceId }: ResetInstanceTokenCommand): Promise<ResetInstanceTokenResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    // Shown once, in this answer; only its hash is recorded (as at creation, 4.1).
    const token = newSecret('gwt');
    // The runner waits for the read models, which authenticate instance queries: the old token is
    // refused, and the new one accepted, by the very next request.
    const { state } = await this.runner.instances.handle(instanceId, {
      type: 'ResetInstanceToken',
      data: { accountId, tokenHash: hashSecret(token), now: this.clock.now() },
    });
    if (state.status !== 'created') throw new Error('instance whose token was reset has no state');
    return { instanceid: state.instanceId, token };
  }
}
