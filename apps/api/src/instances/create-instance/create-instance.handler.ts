import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PackagesConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { InstanceIdTaken } from '@gw/domain-instances';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { hashSecret, newInstanceId, newSecret } from '@gw/application';
import { CreateInstanceCommand, type CreateInstanceResult } from './create-instance.command';

@CommandHandler(CreateInstanceCommand)
export class CreateInstanceHandler implements ICommandHandler<CreateInstanceCommand, CreateInstanceResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    @InjectConfig('packages') private readonly packages: PackagesConfig,
  ) {}

  async execute({ email, apiKey, packageId, label }: CreateInstanceCommand): Promise<CreateInstanceResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    // The token is shown once, in this answer; only its hash is recorded.
    const token = newSecret('gwt');
    for (;;) {
      const instanceId = newInstanceId();
      try {
        const { state } = await this.runner.instances.handle(instanceId, {
          type: 'CreateInstance',
          data: {
            instanceId,
            accountId,
            packageId,
            packages: this.packages.catalogue,
            tokenHash: hashSecret(token),
            ...(label ? { label } : {}),
            now: this.clock.now(),
          },
        });
        if (state.status !== 'created') throw new Error('instance was not created');
        return {
          instanceid: instanceId,
          token,
          packageid: state.packageId,
          createdAt: state.createdAt,
          expiresAt: state.expiresAt,
        };
      } catch (error) {
        // 96 random bits make a collision all but impossible; drawing again is still the right answer.
        if (!(error instanceof InstanceIdTaken)) throw error;
      }
    }
  }
}
