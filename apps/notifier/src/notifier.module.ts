import { Module, type DynamicModule } from '@nestjs/common';
import { PersonalData, SecretBox } from '@gw/application';
import type { AppConfig } from '@gw/config';
import { configModule, NestLoggingModule, webhookSenderProvider } from '@gw/nest-app';
import type { EventStore } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { NotifierMetrics } from './metrics/metrics';
import { NotifierService } from './notifier.service';
import { EVENT_STORE, LOGGER } from './tokens';

/** The notifier as a NestJS standalone application (no HTTP framework; /metrics is a bare server). */
@Module({})
export class NotifierModule {
  static register(deps: { config: AppConfig; store: EventStore; logger: Logger }): DynamicModule {
    return {
      module: NotifierModule,
      imports: [
        configModule(deps.config),
        // Nest's own messages go through the pino instance behind the app's logger (NestLogger, main.ts).
        NestLoggingModule.forLogger(deps.logger),
      ],
      providers: [
        { provide: EVENT_STORE, useValue: deps.store },
        { provide: LOGGER, useValue: deps.logger },
        { provide: SecretBox, useValue: new SecretBox(deps.config.secrets.secretsKey) },
        {
          provide: PersonalData,
          useFactory: (box: SecretBox) => PersonalData.on(deps.store, box),
          inject: [SecretBox],
        },
        NotifierMetrics,
        webhookSenderProvider,
        NotifierService,
      ],
    };
  }
}
