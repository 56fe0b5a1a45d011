import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newSigningSecret, SecretBox, sealHeaders } from '@gw/application';
import { deliveryEnabled, needsNewSigningKey, needsNewSigningSecret } from '@gw/domain-instances';
import { ReadModelsService } from '../../read-models/read-models.service';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../instance-authenticator';
import { receiverOptionsFields } from '../receiver-options-fields';
import { signingSecretField, SigningKeyDraws } from '../signing-secret';
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
    private readonly keys: SigningKeyDraws,
    private readonly readModels: ReadModelsService,
  ) {}

  async execute(command: ChangeWebhookCommand): Promise<ChangeWebhookResult> {
    const { instanceId, token, webhookUrl, events, headers, signatureScheme } = command;
    const { state } = await this.runner.instances.handle(instanceId, async (current, scope) => {
      this.auth.authenticateCommand(instanceId, token, current, scope);
      // Only once authenticated, and once per request, even when a concurrent change makes the
      // runner decide again.
      const refusal = await scope.once('url refusal', () => this.policy.resolutionProblem(webhookUrl));
      // An empty URL ignores the options, so their values are not even sealed then.
      const options = webhookUrl === '' ? undefined : { headers, signatureScheme };
      return {
        type: 'ChangeWebhook',
        data: {
          url: webhookUrl,
          now: this.clock.now(),
          ...(events ? { events } : {}),
          ...(options?.headers
            ? { headers: scope.once('headers', () => sealHeaders(this.secrets, options.headers!)) }
            : {}),
          ...(options?.signatureScheme ? { signatureScheme: options.signatureScheme } : {}),
          // Only a first registration uses one; it is never stored in clear.
          ...(needsNewSigningSecret(current, webhookUrl)
            ? { newSigningSecret: this.secrets.seal(newSigningSecret()) }
            : {}),
          ...(needsNewSigningKey(current, webhookUrl, signatureScheme)
            ? { newSigningKey: scope.once('key pair', () => this.keys.draw()) }
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
      ...receiverOptionsFields(state),
      // The runner waited for the read models to show a write; one that recorded nothing new shows
      // them as they are (health changes with the notifier's attempts, never with this call).
      health: this.readModels.asWritten().endpointHealth(instanceId),
    };
  }
}
