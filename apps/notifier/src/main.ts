import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { RequestListener } from 'node:http';
import { loadConfigOrExit, type AppConfig } from '@gw/config';
import { startOrExit, stopGracefullyOnSignal } from '@gw/process';
import { withEventSchemas } from '@gw/application';
import { openEventStore } from '@gw/event-store/open';
import { Codes } from '@gw/contract';
import {
  closeListeners,
  routeIn,
  routingFailure,
  sendFailure,
  sendHealthy,
  startListener,
  type Listener,
  type RouteTable,
} from '@gw/http-listener';
import { createLogger, type Logger } from '@gw/logging';
import { NestLogger } from '@gw/nest-app';
import { NotifierModule } from './notifier.module';
import { NotifierService } from './notifier.service';

const STATUS_ROUTES: RouteTable = { '/healthz': ['GET', 'HEAD'], '/metrics': ['GET', 'HEAD'] };

/**
 * On the embedded store, while the API writes to the file too, the notifier's group commits start at
 * most every 8 ms (the store's default is 4): each commit of a notification's creation or outcome
 * waits up to 4 ms more, and at 2,000 messages/s the notifier spends 6 to 7 % less CPU per message
 * (fewer, larger transactions; bench/README, "Kept: the notifier's group commits at most every 8 ms").
 */
const NOTIFIER_GROUP_INTERVAL_MS = 8;

/**
 * /healthz (200 once caught up with the log) and /metrics (Prometheus) on NOTIFIER_PORT, bound to
 * INTERNAL_HOST like the ingest host: it is for operators and probes, not the public.
 */
function serveStatus(
  config: AppConfig,
  notifier: NotifierService,
  logger: Logger,
  isReady: () => boolean,
): Promise<Listener> {
  const handler: RequestListener = (req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    const route = routeIn(STATUS_ROUTES, req.method ?? 'GET', path);
    // HEAD answers carry the headers of GET; Node leaves out the body.
    if (route.kind !== 'operation') return sendFailure(res, routingFailure(route, req.method ?? 'GET'));
    if (path === '/healthz') {
      if (isReady()) return sendHealthy(res);
      return sendFailure(res, {
        status: 503,
        violations: [{ code: Codes.Unavailable, message: 'catching up with the log' }],
      });
    }
    notifier.metricsText(isReady()).then(
      (text) => {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
        res.end(text);
      },
      (error: unknown) => {
        logger.warn('metrics unavailable', { error });
        sendFailure(res, {
          status: 503,
          violations: [{ code: Codes.Unavailable, message: 'metrics are unavailable; retry' }],
        });
      },
    );
  };
  return startListener(
    {
      name: 'notifier',
      port: config.http.notifierPort,
      address: config.http.internalHost,
      portVariable: 'NOTIFIER_PORT',
      routes: STATUS_ROUTES,
      handler,
    },
    logger,
  );
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.log.level, {
    app: 'notifier',
    partition: `${config.notifier.partition}/${config.notifier.partitions}`,
  });
  // Events are stamped with their schema version on append and upcast to their current shape on read.
  const store = withEventSchemas(
    openEventStore(config.store.eventStore, {
      lockTimeoutMs: config.store.lockTimeoutMs,
      groupIntervalMs: NOTIFIER_GROUP_INTERVAL_MS,
      onWarning: (message, fields) => logger.warn(message, fields),
    }),
  );
  const app = await NestFactory.createApplicationContext(NotifierModule.register({ config, store, logger }), {
    abortOnError: false,
    // Nest's messages wait for NestLogger, which writes them through the app's pino instance. They are
    // not printed if the start fails: startOrExit logs the error, and Nest's own format is not JSON.
    bufferLogs: true,
    autoFlushLogs: false,
  });
  app.useLogger(app.get(NestLogger));
  app.flushLogs();
  const notifier = app.get(NotifierService);
  let ready = false;
  const status = await serveStatus(config, notifier, logger, () => ready);
  await notifier.start();
  ready = true;
  logger.info('ready', { ports: { notifier: status.port } });

  stopGracefullyOnSignal(logger, async () => {
    await notifier.stop(config.http.shutdownGraceMs);
    await closeListeners([status], 0);
    await app.close();
    await store.close();
  });
}

startOrExit('notifier', main);
