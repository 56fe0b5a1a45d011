import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newSigningSecret, SecretBox } from '@gw/application';
import { deliveryEnabled, needsNewSigningSecret } from '@gw/domain-instances';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../instance-authenticator';
import { signingSecretField } from '../signing-secret';
import { WebhookTargetPolicy } from '../webhook-target-policy';
import { ChangeWebhookCommand, type ChangeWebhookResult } from './change-webhook.command';

@CommandHandler(ChangeWebhookCommand)
export class ChangeWebhookHandler implements ICommandHandler<ChangeWebhookCommand, ChangeWebhookResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly policy: WebhookTargetPolicy,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly auth: InstanceAuthenticator,
  ) {}

  async execute({ instanceId, token, webhookUrl, events }: ChangeWebhookCommand): Promise<ChangeWebhookResult> {
    const { state } = await this.runner.instances.handle(instanceId, async (current, scope) => {
      this.auth.authenticateCommand(instanceId, token, current, scope);
      // Only once authenticated, and once per request, even when a concurrent change makes the
      // runner decide again.
      const refusal = await scope.once('url refusal', () => this.policy.resolutionProblem(webhookUrl));
      return {
        type: 'ChangeWebhook',
        data: {
          url: webhookUrl,
          now: this.clock.now(),
          ...(events ? { events } : {}),
          // Only a first registration uses one; it is never stored in clear.
          ...(needsNewSigningSecret(current, webhookUrl)
            ? { newSigningSecret: this.secrets.seal(newSigningSecret()) }
            : {}),
          ...(refusal ? { urlRefusal: refusal } : {}),
        },
      };
    });
    if (state.status !== 'created') throw new Error('changed instance has no state');
    return {
      webhookUrl: state.webhookUrl,
      enabled: deliveryEnabled(state, this.clock.now()),
      events: state.events,
      ...signingSecretField(this.secrets, state.encryptedSigningSecret),
    };
  }
}
