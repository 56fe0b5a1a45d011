import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { instanceStream, newSigningSecret, SecretBox } from '@gw/application';
import type { WebhooksConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { instanceDecider, instanceStreamName } from '@gw/domain-instances';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../instance-authenticator';
import { RotateSigningSecretCommand, type RotateSigningSecretResult } from './rotate-signing-secret.command';

/** docs/api.md 8.5: a new signing secret signs from the answer on; the one it replaces signs second
 * for `SIGNING_SECRET_OVERLAP_HOURS`. */
@CommandHandler(RotateSigningSecretCommand)
export class RotateSigningSecretHandler implements ICommandHandler<RotateSigningSecretCommand, RotateSigningSecretResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly auth: InstanceAuthenticator,
    @InjectConfig('webhooks') private readonly config: WebhooksConfig,
  ) {}

  async execute({ instanceId, token }: RotateSigningSecretCommand): Promise<RotateSigningSecretResult> {
    let drawn: { clear: string; sealed: string } | undefined;
    const authenticate = this.auth.forCommand(instanceId, token);
    const { state } = await this.runner.run(instanceStream, instanceStreamName(instanceId), (current) => {
      authenticate(current);
      // Drawn once the request has authenticated, and only once: a decision made again after a
      // concurrent change rotates to the same secret. Only the sealed form reaches the log.
      drawn ??= this.draw();
      const command = {
        type: 'RotateSigningSecret' as const,
        data: { newSigningSecret: drawn.sealed, overlapHours: this.config.signingSecretOverlapHours, now: this.clock.now() },
      };
      return instanceDecider.decide(command, current);
    });
    if (state.status !== 'created' || !drawn) throw new Error('rotated instance has no state');
    return { signingSecret: drawn.clear, previousValidUntil: state.previousSigningSecret?.validUntil ?? null };
  }

  private draw(): { clear: string; sealed: string } {
    const clear = newSigningSecret();
    return { clear, sealed: this.secrets.seal(clear) };
  }
}
