import { Module, type DynamicModule } from '@nestjs/common';
import { AccountIdentity, PersonalData, SecretBox } from '@gw/application';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@gw/config';
import { configModule, NestLoggingModule, webhookSenderProvider } from '@gw/nest-app';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { AccountAuthenticator } from './accounts/account-authenticator';
import { OperationExecutor } from './http/operation-executor';
import { IngestCapacity } from './ingest/ingest-capacity';
import { FailureAnswers } from './http/failure-answers';
import { ApiMetrics } from './metrics/api-metrics';
import { StoreMetrics } from './metrics/store-metrics';
import { RateLimits } from './rate-limits/rate-limits';
import { ReadModelsService } from './read-models/read-models.service';
import { Clock } from './shared/clock';
import { CommandRunner } from './shared/command-runner';
import { InstanceNotifications } from './notifications/instance-notifications';
import { EVENT_STORE, LOGGER } from './shared/tokens';
import { InstanceAuthenticator } from './webhooks/instance-authenticator';
import { TestWebhookSlots } from './webhooks/test-webhook/test-webhook-slots';
import { WebhookTargetPolicy } from './webhooks/webhook-target-policy';
import { WebhookUrlFormConstraint } from './webhooks/webhook-url-form.constraint';
import { OPERATIONS } from './operations';
import { SigningKeyDraws } from './webhooks/signing-secret';

/** The API's application: handlers (registered on CqrsModule's buses), read models, limits, and
 * the executor the HTTP pipeline hands each request to. The store and logger are made outside, so that main.ts owns their lifecycle and the same
 * store can serve other modules of the process. */
@Module({})
export class AppModule {
  static register(deps: {
    config: AppConfig;
    store: EventStore;
    logger: Logger;
    storeMetrics?: StoreMetrics;
  }): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        configModule(deps.config),
        // Nest's own messages go through the pino instance behind the app's logger (NestLogger, main.ts).
        NestLoggingModule.forLogger(deps.logger),
      ],
      providers: [
        { provide: EVENT_STORE, useValue: deps.store },
        { provide: LOGGER, useValue: deps.logger },
        { provide: SecretBox, useValue: new SecretBox(deps.config.secrets.secretsKey) },
        { provide: AccountIdentity, useValue: new AccountIdentity(deps.config.secrets.secretsKey) },
        // Seals messages' and acks' personal fields on ingest and opens them for getNotifications.
        {
          provide: PersonalData,
          useFactory: (box: SecretBox) => PersonalData.on(deps.store, box),
          inject: [SecretBox],
        },
        RateLimits,
        FailureAnswers,
        OperationExecutor,
        ApiMetrics,
        // Made with the store (main.ts), which reports its appends and group commits to it.
        { provide: StoreMetrics, useValue: deps.storeMetrics ?? new StoreMetrics() },
        Clock,
        CommandRunner,
        ReadModelsService,
        AccountAuthenticator,
        InstanceAuthenticator,
        WebhookTargetPolicy,
        WebhookUrlFormConstraint,
        // docs/api.md 8.6: testWebhook sends with the notifier's sender (the same connect-time check).
        webhookSenderProvider,
        TestWebhookSlots,
        SigningKeyDraws,
        IngestCapacity,
        InstanceNotifications,
        // Every operation's handler, from the one list (operations.ts).
        ...OPERATIONS.map((op) => op.handler),
      ],
    };
  }
}
