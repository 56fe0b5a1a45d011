import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@gw/config';
import { instanceDecider, instanceStreamName } from '@gw/domain-instances';
import { AccountAuthenticator } from '../../accounts/account-authenticator';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { APP_CONFIG } from '../../shared/tokens';
import { RenewInstanceCommand, type RenewInstanceResult } from './renew-instance.command';

@CommandHandler(RenewInstanceCommand)
export class RenewInstanceHandler implements ICommandHandler<RenewInstanceCommand, RenewInstanceResult> {
  constructor(
    private readonly accounts: AccountAuthenticator,
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ email, apiKey, instanceId, packageId }: RenewInstanceCommand): Promise<RenewInstanceResult> {
    const accountEmail = await this.accounts.authenticate(email, apiKey);
    const { state } = await this.runner.run(instanceStreamName(instanceId), instanceDecider, () => ({
      type: 'RenewInstance' as const,
      data: { accountEmail, packageId, packages: this.config.packages, now: this.clock.now() },
    }));
    if (state.status !== 'created') throw new Error('renewed instance has no state');
    return { instanceid: state.instanceId, packageid: state.packageId, expiresAt: state.expiresAt };
  }
}
