import { Module, type DynamicModule } from '@nestjs/common';
import { SecretBox } from '@gw/application';
import type { AppConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { WebhookSender } from './delivery/webhook-sender';
import { NotifierMetrics } from './metrics/metrics';
import { NotifierService } from './notifier.service';
import { APP_CONFIG, EVENT_STORE, LOGGER } from './tokens';

/** The notifier as a NestJS standalone application (no HTTP framework; /metrics is a bare server). */
@Module({})
export class NotifierModule {
  static register(deps: { config: AppConfig; store: EventStore; logger: Logger }): DynamicModule {
    return {
      module: NotifierModule,
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: EVENT_STORE, useValue: deps.store },
        { provide: LOGGER, useValue: deps.logger },
        { provide: SecretBox, useValue: new SecretBox(deps.config.secretsKey) },
        NotifierMetrics,
        WebhookSender,
        NotifierService,
      ],
    };
  }
}
