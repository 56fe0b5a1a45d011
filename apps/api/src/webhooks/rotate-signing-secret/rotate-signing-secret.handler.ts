import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newSigningSecret, SecretBox } from '@gw/application';
import type { WebhooksConfig } from '@gw/config';
import { rotatesKeyPair, type SigningKeyPair } from '@gw/domain-instances';
import { InjectConfig } from '@gw/nest-app';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../instance-authenticator';
import { SigningKeyDraws } from '../signing-secret';
import { RotateSigningSecretCommand, type RotateSigningSecretResult } from './rotate-signing-secret.command';

/** docs/api.md 8.5: a new signing secret signs from the answer on; the one it replaces signs second
 * for `SIGNING_SECRET_OVERLAP_HOURS`. */
@CommandHandler(RotateSigningSecretCommand)
export class RotateSigningSecretHandler implements ICommandHandler<
  RotateSigningSecretCommand,
  RotateSigningSecretResult
> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly auth: InstanceAuthenticator,
    @InjectConfig('webhooks') private readonly config: WebhooksConfig,
    private readonly keys: SigningKeyDraws,
  ) {}

  async execute({ instanceId, token }: RotateSigningSecretCommand): Promise<RotateSigningSecretResult> {
    // The secret the command decided on, to show in the answer.
    let drawn: { clear: string; sealed: string } | undefined;
    let key: SigningKeyPair | undefined;
    const { state } = await this.runner.instances.handle(instanceId, (current, scope) => {
      this.auth.authenticateCommand(instanceId, token, current, scope);
      // Drawn once the request has authenticated, and only once: a decision made again after a
      // concurrent change rotates to the same secret. Only the sealed form reaches the log.
      // Under ed25519 the key pair rotates instead (section 12).
      const pair = rotatesKeyPair(current);
      drawn = pair ? undefined : scope.once('signing secret', () => this.draw());
      key = pair ? scope.once('key pair', () => this.keys.draw()) : undefined;
      return {
        type: 'RotateSigningSecret',
        data: {
          ...(drawn ? { newSigningSecret: drawn.sealed } : {}),
          ...(key ? { newSigningKey: key } : {}),
          overlapHours: this.config.signingSecretOverlapHours,
          now: this.clock.now(),
        },
      };
    });
    if (state.status !== 'created' || !(drawn || key)) throw new Error('rotated instance has no state');
    const secret = drawn?.clear ?? (state.encryptedSigningSecret && this.secrets.open(state.encryptedSigningSecret));
    if (!secret) throw new Error('an instance under ed25519 has no signing secret');
    return {
      signingSecret: secret,
      previousValidUntil: key
        ? (state.previousSigningKey?.validUntil ?? null)
        : (state.previousSigningSecret?.validUntil ?? null),
      ...(key ? { signingPublicKey: key.publicKey } : {}),
    };
  }

  private draw(): { clear: string; sealed: string } {
    const clear = newSigningSecret();
    return { clear, sealed: this.secrets.seal(clear) };
  }
}
