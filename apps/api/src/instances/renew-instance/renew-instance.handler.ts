import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { PackagesConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { RenewInstanceCommand, type RenewInstanceResult } from './renew-instance.command';

@CommandHandler(RenewInstanceCommand)
export class RenewInstanceHandler implements ICommandHandler<RenewInstanceCommand, RenewInstanceResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    @InjectConfig('packages') private readonly packages: PackagesConfig,
  ) {}

  async execute({ email, apiKey, instanceId, packageId }: RenewInstanceCommand): Promise<RenewInstanceResult> {
    const accountId = await this.accounts.authenticate(email, apiKey);
    const { state } = await this.runner.instances.handle(instanceId, {
      type: 'RenewInstance',
      data: { accountId, packageId, packages: this.packages.catalogue, now: this.clock.now() },
    });
    if (state.status !== 'created') throw new Error('renewed instance has no state');
    return { instanceid: state.instanceId, packageid: state.packageId, expiresAt: state.expiresAt };
  }
}
