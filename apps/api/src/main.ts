import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { useContainer } from 'class-validator';
import { loadConfigOrExit } from '@gw/config';
import { startOrExit, stopGracefullyOnSignal } from '@gw/process';
import { openEventStore } from '@gw/event-store/open';
import { createLogger } from '@gw/logging';
import { AccountIdentity, withEventSchemas } from '@gw/application';
import { AppModule } from './app.module';
import { ensureDemoAccount } from './demo-account';
import { bearerAuthorizer } from './http/bearer-authorizer';
import { DashboardFiles } from './dashboard/dashboard-files';
import { ApiDocs } from './openapi/api-docs';
import { allStaticFiles } from './http/static-files';
import { OperationExecutor } from './http/operation-executor';
import { closeListeners } from '@gw/http-listener';
import { listenOnHosts } from './http/http-listeners';
import { StoreMetrics } from './metrics/store-metrics';
import { RateLimits, type FailureScope } from './rate-limits/rate-limits';
import { ReadModelsService } from './read-models/read-models.service';
import { NestLogger } from '@gw/nest-app';
import { WebhookUrlFormConstraint } from './webhooks/webhook-url-form.constraint';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.log.level, { app: 'api' });
  // Appends timed, and the embedded store's group commits observed, for /metrics: the adapter
  // itself knows nothing of prom-client.
  const storeMetrics = new StoreMetrics();
  // Events are stamped with their schema version on append and upcast to their current shape on read.
  const store = storeMetrics.measure(
    withEventSchemas(
      openEventStore(config.store.eventStore, {
        lockTimeoutMs: config.store.lockTimeoutMs,
        onWarning: (message, fields) => logger.warn(message, fields),
        onGroupCommitted: storeMetrics.groupCommitted,
      }),
    ),
  );
  // An application context, not an HTTP app: the project's own transport routes each request once
  // and hands it to the executor, which sends its command or query on this container's buses.
  const app = await NestFactory.createApplicationContext(AppModule.register({ config, store, logger, storeMetrics }), {
    abortOnError: false,
    // Nest's messages wait for NestLogger, which writes them through the app's pino instance. They are
    // not printed if the start fails: startOrExit logs the error, and Nest's own format is not JSON.
    bufferLogs: true,
    autoFlushLogs: false,
  });
  app.useLogger(app.get(NestLogger));
  app.flushLogs();
  // class-validator builds its rule classes itself; only the webhook-URL rule needs Nest's container.
  const constraint = app.get(WebhookUrlFormConstraint);
  useContainer(
    { get: (cls: unknown) => (cls === WebhookUrlFormConstraint ? constraint : undefined) },
    { fallback: true },
  );
  await app.init();
  await app.get(ReadModelsService).start();
  if (config.demoAccount) await ensureDemoAccount(config.store, store, app.get(AccountIdentity), logger);

  const limits = app.get(RateLimits);
  // The public hosts share one failure budget per source, the ingest host has its own: the public
  // can never lock the gateway out (docs/api.md section 2).
  const bySource = (scope: FailureScope) => ({
    sourceWait: (source: string) => limits.sourceWait(scope, source),
    failed: (source: string) => limits.failed(scope, source),
  });
  const dashboard = DashboardFiles.load({
    publicApiUrl: config.http.publicApiUrl,
    packages: config.packages.catalogue,
  });
  // The page finds the instance host on this port unless PUBLIC_API_URL says otherwise (docs/api.md 10).
  // Set before any host listens, so the page is never served with port 0; only a free port (API_PORT=0)
  // is known later.
  dashboard.apiPort = config.http.apiPort;
  if (!dashboard.built) {
    logger.warn(
      'the dashboard is not built; GET / answers 404 until `npm run build` has bundled it and the API is restarted (the bundle is read at start)',
    );
  }
  const listeners = await listenOnHosts(
    [
      {
        host: 'account',
        port: config.http.accountPort,
        address: config.http.host,
        options: { ...bySource('public'), files: allStaticFiles(dashboard, new ApiDocs('account')) },
      },
      {
        host: 'instance',
        port: config.http.apiPort,
        address: config.http.host,
        options: { ...bySource('public'), files: new ApiDocs('instance') },
      },
      // Never exposed by accident: the internal host binds INTERNAL_HOST (docs/api.md section 1).
      {
        host: 'internal',
        port: config.http.internalPort,
        address: config.http.internalHost,
        options: { ...bySource('ingest'), authorize: bearerAuthorizer(config.secrets.internalToken) },
      },
    ],
    app.get(OperationExecutor),
    logger,
  );
  if (config.http.apiPort === 0) dashboard.apiPort = listeners.find((l) => l.name === 'instance')?.port ?? 0;
  logger.info('ready', { ports: Object.fromEntries(listeners.map((l) => [l.name, l.port])), mode: config.mode });

  stopGracefullyOnSignal(logger, async () => {
    await closeListeners(listeners, config.http.shutdownGraceMs);
    await app.close();
    await store.close();
  });
}

startOrExit('api', main);
