import { Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { WebhooksConfig } from '@gw/config';
import { WebhookSender } from '@gw/webhook-delivery';
import { InjectConfig } from './config.module';

/** The shared webhook sender as a Nest component: configured with the `webhooks` section, its
 * kept-alive connections closed at shutdown. */
@Injectable()
class NestWebhookSender extends WebhookSender implements OnApplicationShutdown {
  constructor(@InjectConfig('webhooks') config: WebhooksConfig) {
    super(config);
  }

  onApplicationShutdown(): void {
    this.close();
  }
}

/** Provides `WebhookSender` (the notifier's deliveries, the API's testWebhook) to an app's module. */
export const webhookSenderProvider: Provider = { provide: WebhookSender, useClass: NestWebhookSender };
