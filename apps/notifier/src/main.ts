import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfigOrExit, startOrExit, stopGracefullyOnSignal, type AppConfig } from '@gw/config';
import { openEventStore } from '@gw/event-store';
import { createLogger, type Logger } from '@gw/logging';
import { NotifierModule } from './notifier.module';
import { NotifierService } from './notifier.service';

/** /healthz (200 once caught up with the log) and /metrics (Prometheus) on NOTIFIER_PORT. */
function serveStatus(config: AppConfig, notifier: NotifierService, logger: Logger, isReady: () => boolean) {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'application/json; charset=utf-8', '{"success":false,"msg":["0013"]}');
    if (path === '/healthz') {
      return isReady()
        ? send(200, 'application/json; charset=utf-8', '{"success":true,"status":"ok"}')
        : send(503, 'application/json; charset=utf-8', '{"success":false,"status":"catching up"}');
    }
    if (path === '/metrics') {
      void notifier.metricsText(isReady()).then((text) => send(200, 'text/plain; version=0.0.4; charset=utf-8', text));
      return;
    }
    send(404, 'application/json; charset=utf-8', '{"success":false,"msg":["0013"]}');
  });
  return new Promise<typeof server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.notifierPort, config.host, () => {
      logger.info('listening', { host: 'notifier', address: config.host, port: (server.address() as AddressInfo).port });
      resolve(server);
    });
  });
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, { app: 'notifier', partition: `${config.notifierPartition}/${config.notifierPartitions}` });
  const store = openEventStore(config.eventStore, {
    lockTimeoutMs: config.storeLockTimeoutMs,
    onWarning: (message, fields) => logger.warn(message, fields),
  });
  const app = await NestFactory.createApplicationContext(NotifierModule.register({ config, store, logger }), {
    logger: false,
    abortOnError: false,
  });
  const notifier = app.get(NotifierService);
  let ready = false;
  const status = await serveStatus(config, notifier, logger, () => ready);
  await notifier.start();
  ready = true;
  logger.info('ready', { ports: { notifier: (status.address() as AddressInfo).port } });

  stopGracefullyOnSignal(logger, async () => {
    await notifier.stop(config.shutdownGraceMs);
    status.close();
    status.closeAllConnections();
    await app.close();
    await store.close();
  });
}

startOrExit('notifier', main);
