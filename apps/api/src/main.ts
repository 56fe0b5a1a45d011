import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { RequestListener } from 'node:http';
import { useContainer } from 'class-validator';
import { loadConfigOrExit, startOrExit, stopGracefullyOnSignal } from '@gw/config';
import { openEventStore } from '@gw/event-store';
import { createLogger } from '@gw/logging';
import { AppModule } from './app.module';
import { ensureDemoAccount } from './demo-account';
import { bearerAuthorizer } from './http/bearer-authorizer';
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
  const app = await NestFactory.create(AppModule.register({ config, store, logger }), {
    bodyParser: false,
    abortOnError: false,
    logger: new NestJsonLogger(logger),
  });
  // class-validator builds its rule classes itself; only the webhook-URL rule needs Nest's container.
  const constraint = app.get(WebhookUrlFormConstraint);
  useContainer({ get: (cls: unknown) => (cls === WebhookUrlFormConstraint ? constraint : undefined) }, { fallback: true });
  await app.init();
  await app.get(ReadModelsService).start();
  if (config.demoAccount) await ensureDemoAccount(config, store, logger);

  const express = app.getHttpAdapter().getInstance() as RequestListener & { set(name: string, value: unknown): void; disable(name: string): void };
  // Answers are never cached or made conditional: a GET such as newInstance changes state and its
  // answer is the only place its token is shown, so a 304 would lose it.
  express.set('etag', false);
  express.disable('x-powered-by');
  const handler: RequestListener = express;
  const limits = app.get(RateLimits);
  const bySource = { sourceWait: (source: string) => limits.sourceWait(source), failed: (source: string) => limits.failed(source) };
  const listeners = await listenOnHosts(
    [
      { host: 'account', port: config.accountPort, address: config.host, options: bySource },
      { host: 'instance', port: config.apiPort, address: config.host, options: bySource },
      // Never exposed by accident: the internal host binds INTERNAL_HOST (CONTRACT section 1).
      { host: 'internal', port: config.internalPort, address: config.internalHost, options: { ...bySource, authorize: bearerAuthorizer(config.internalToken) } },
    ],
    handler,
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
