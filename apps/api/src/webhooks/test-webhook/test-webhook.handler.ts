import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { newSigningSecret, openHeaders, SecretBox, testWebhookId } from '@gw/application';
import { signingSecretsAt, type CreatedInstance } from '@gw/domain-instances';
import { testNotificationBody } from '@gw/domain-notifications';
import { UNREADABLE_SECRET_ATTEMPT, WebhookSender } from '@gw/webhook-delivery';
import { Clock } from '../../shared/clock';
import { CommandRunner } from '../../shared/command-runner';
import { InstanceAuthenticator } from '../instance-authenticator';
import { WebhookTargetPolicy } from '../webhook-target-policy';
import { TestWebhookCommand, type TestWebhookResult } from './test-webhook.command';
import { TestWebhookSlots } from './test-webhook-slots';

/** Appended without an expected revision (the event ids and the store's hash chain stay sound:
 * each adapter chains an `any` append to the stream's actual last event inside the append), and
 * retried for as long as the store keeps refusing it for a race, which only EventStoreDB can. */
const RECORD_ANYWAY = { appendOnly: true, conflictRetries: Number.MAX_SAFE_INTEGER };

/**
 * docs/api.md 8.6: one signed test notification, sent now by the notifier's own sender (the same
 * connect-time address check), to the given URL (checked as registration checks it, not registered)
 * or to the registered one. The attempt is then recorded in the instance's notifications stream, for
 * getWebhookLogs; it has no sequence and is never retried. At most one test per instance and
 * TEST_WEBHOOK_CONCURRENCY in all are in flight (TestWebhookSlots).
 */
@CommandHandler(TestWebhookCommand)
export class TestWebhookHandler implements ICommandHandler<TestWebhookCommand, TestWebhookResult> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly policy: WebhookTargetPolicy,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
    private readonly auth: InstanceAuthenticator,
    private readonly sender: WebhookSender,
    private readonly slots: TestWebhookSlots,
  ) {}

  async execute({ instanceId, token, webhookUrl }: TestWebhookCommand): Promise<TestWebhookResult> {
    const { state } = await this.runner.instances.handle(instanceId, async (current, scope) => {
      this.auth.authenticateCommand(instanceId, token, current, scope);
      const refusal = await scope.once('url refusal', () => this.policy.resolutionProblem(webhookUrl));
      // Only an instance that has never registered a URL lacks a secret; it is never stored in clear.
      const needsSecret = webhookUrl !== '' && current.status === 'created' && current.encryptedSigningSecret === null;
      const firstSecret = needsSecret
        ? scope.once('first secret', () => this.secrets.seal(newSigningSecret()))
        : undefined;
      return {
        type: 'PrepareTestNotification',
        data: {
          url: webhookUrl,
          now: this.clock.now(),
          ...(refusal ? { urlRefusal: refusal } : {}),
          ...(firstSecret ? { newSigningSecret: firstSecret } : {}),
        },
      };
    });
    if (state.status !== 'created') throw new Error('tested instance has no state');

    // Only now, once the caller authenticated and the target passed its checks: nobody without the
    // token can hold a slot, and a refused call never did.
    const release = this.slots.take(instanceId);
    try {
      return await this.attempt(instanceId, webhookUrl, state);
    } finally {
      release();
    }
  }

  /** Sends the test and records how it went. Recording depends on nothing in the notifications
   * stream, so it is appended at whatever revision the stream has and never loses to a concurrent
   * append (before, a conflict answered 0012 after the request had gone out, and the attempt was
   * missing from getWebhookLogs). */
  private async attempt(instanceId: string, webhookUrl: string, state: CreatedInstance): Promise<TestWebhookResult> {
    const at = this.clock.now();
    const webhookId = testWebhookId();
    const opened = this.open(signingSecretsAt(state, at), state.webhookHeaders.sealed);
    // The receiver's headers go on a test to an explicit URL too (section 12).
    const result = opened
      ? await this.sender.send({
          url: webhookUrl === '' ? state.webhookUrl : webhookUrl,
          webhookId,
          body: JSON.stringify(testNotificationBody(instanceId, at)),
          ...opened,
        })
      : UNREADABLE_SECRET_ATTEMPT;
    const { status, error, durationMs } = result;
    await this.runner.notifications.handle(
      instanceId,
      { type: 'RecordTestAttempt', data: { instanceId, webhookId, at, status, error, durationMs } },
      RECORD_ANYWAY,
    );
    return { delivered: status >= 200 && status < 300, status, durationMs, error };
  }

  /** The secrets and headers in clear, or null when SECRETS_KEY cannot open them: the attempt then
   * fails as the notifier's would, recorded, rather than the request. */
  private open(
    sealedSecrets: readonly string[],
    sealedHeaders: string | null,
  ): { signingSecrets: string[]; headers: Array<[string, string]> } | null {
    try {
      return {
        signingSecrets: sealedSecrets.map((secret) => this.secrets.open(secret)),
        headers: openHeaders(this.secrets, sealedHeaders),
      };
    } catch {
      return null;
    }
  }
}
