import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { instanceStream } from '@gw/application';
import type { PackagesConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { instanceDecider, instanceStreamName } from '@gw/domain-instances';
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
    const command = { type: 'RenewInstance' as const, data: { accountId, packageId, packages: this.packages.catalogue, now: this.clock.now() } };
    const { state } = await this.runner.run(instanceStream, instanceStreamName(instanceId), (current) => instanceDecider.decide(command, current));
    if (state.status !== 'created') throw new Error('renewed instance has no state');
    return { instanceid: state.instanceId, packageid: state.packageId, expiresAt: state.expiresAt };
  }
}
