import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { useContainer } from 'class-validator';
import { loadConfigOrExit } from '@gw/config';
import { startOrExit, stopGracefullyOnSignal } from '@gw/process';
import { openEventStore } from '@gw/event-store';
import { createLogger } from '@gw/logging';
import { AppModule } from './app.module';
import { ensureDemoAccount } from './demo-account';
import { bearerAuthorizer } from './http/bearer-authorizer';
import { Dispatcher } from './http/dispatcher';
import { closeListeners } from '@gw/http-listener';
import { listenOnHosts } from './http/http-listeners';
import { RateLimits } from './rate-limits/rate-limits';
import { ReadModelsService } from './read-models/read-models.service';
import { NestJsonLogger } from './shared/nest-logger';
import { WebhookUrlFormConstraint } from './webhooks/webhook-url-form.constraint';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, { app: 'api' });
  const store = openEventStore(config.eventStore, {
    lockTimeoutMs: config.storeLockTimeoutMs,
    onWarning: (message, fields) => logger.warn(message, fields),
  });
  // An application context, not an HTTP app: the project's own transport routes each request once
  // and hands it to the dispatcher, which runs the handler resolved from this container.
  const app = await NestFactory.createApplicationContext(AppModule.register({ config, store, logger }), {
    abortOnError: false,
    logger: new NestJsonLogger(logger),
  });
  // class-validator builds its rule classes itself; only the webhook-URL rule needs Nest's container.
  const constraint = app.get(WebhookUrlFormConstraint);
  useContainer({ get: (cls: unknown) => (cls === WebhookUrlFormConstraint ? constraint : undefined) }, { fallback: true });
  await app.init();
  await app.get(ReadModelsService).start();
  if (config.demoAccount) await ensureDemoAccount(config, store, logger);

  const limits = app.get(RateLimits);
  const bySource = { sourceWait: (source: string) => limits.sourceWait(source), failed: (source: string) => limits.failed(source) };
  const listeners = await listenOnHosts(
    [
      { host: 'account', port: config.accountPort, address: config.host, options: bySource },
      { host: 'instance', port: config.apiPort, address: config.host, options: bySource },
      // Never exposed by accident: the internal host binds INTERNAL_HOST (CONTRACT section 1).
      { host: 'internal', port: config.internalPort, address: config.internalHost, options: { ...bySource, authorize: bearerAuthorizer(config.internalToken) } },
    ],
    app.get(Dispatcher),
    logger,
  );
  logger.info('ready', { ports: Object.fromEntries(listeners.map((l) => [l.name, l.port])), mode: config.mode });

  stopGracefullyOnSignal(logger, async () => {
    await closeListeners(listeners, config.shutdownGraceMs);
    await app.close();
    await store.close();
  });
}

startOrExit('api', main);
