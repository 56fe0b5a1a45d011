import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccountIdentity, registerAccount, withEventSchemas } from '@gw/application';
import { loadConfig } from '@gw/config';
import { notificationsStreamName } from '@gw/domain-notifications';
import { verifyStreamChain, type EventStore } from '@gw/event-store';
import { openEventStore } from '@gw/event-store/open';
import { createLogger } from '@gw/logging';
import { WebhookReceiver } from '@gw/testing';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../../app.module';
import {
  CreateInstanceCommand,
  type CreateInstanceResult,
} from '../../instances/create-instance/create-instance.command';
import { ReadModelsService } from '../../read-models/read-models.service';
import { GetWebhookLogsQuery, type WebhookLogsResult } from '../get-webhook-logs/get-webhook-logs.query';
import { TestWebhookCommand, type TestWebhookResult } from './test-webhook.command';

/**
 * The embedded store with another writer that always wins the race for a notifications stream: just
 * before each append there, it appends an event of its own (as the notifier recording its deliveries
 * would), so that an append at the revision the API read always meets a concurrent change.
 */
function withRivalWriter(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...[stream, events, expected]: Parameters<EventStore['append']>) => {
        if (stream.startsWith('notifications-')) {
          const data = {
            instanceId: stream.slice('notifications-'.length),
            webhookId: `test_rival${randomUUID().replace(/-/g, '')}`,
            at: new Date().toISOString(),
            status: 204,
            error: '',
            durationMs: 1,
          };
          await target.append(stream, [{ id: randomUUID(), type: 'TestNotificationAttempted', data }], 'any');
        }
        return target.append(stream, events, expected);
      };
    },
  });
}

describe('testWebhook records its attempt whatever else is appended to the notifications stream', () => {
  let dir: string;
  let store: EventStore;
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-test-webhook-'));
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        DATA_DIR: dir,
        ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
        ALLOW_HTTP_WEBHOOKS: 'true',
        CONFLICT_RETRIES: '2',
      },
      dir,
    );
    store = withRivalWriter(withEventSchemas(openEventStore(config.store.eventStore)));
    receiver = await WebhookReceiver.start();
    app = await NestFactory.createApplicationContext(
      AppModule.register({ config, store, logger: createLogger('error') }),
      { logger: false },
    );
    await app.init();
    await app.get(ReadModelsService).start();
  });

  afterEach(async () => {
    await app.close();
    await receiver.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers with the outcome and lists every test that went out, though each append met a rival', async () => {
    const identity = new AccountIdentity(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }, dir).secrets.secretsKey);
    const { apikey } = await registerAccount(store, identity, 'ann@example.com', new Date().toISOString());
    const commands = app.get(CommandBus);
    const created: CreateInstanceResult = await commands.execute(
      new CreateInstanceCommand('ann@example.com', apikey, 'trial'),
    );

    for (let i = 0; i < 5; i++) {
      const result: TestWebhookResult = await commands.execute(
        new TestWebhookCommand(created.instanceid, created.token, receiver.url(`/t${i}`)),
      );
      expect(result).toMatchObject({ delivered: true, status: 200 });
    }
    expect(receiver.requests).toHaveLength(5);
    const logs: WebhookLogsResult = await app
      .get(QueryBus)
      .execute(new GetWebhookLogsQuery(created.instanceid, created.token, 100));
    const logged = new Set(logs.attempts.map((a) => a.webhookId));
    for (const sent of receiver.requests) expect(logged.has(sent.webhookId)).toBe(true);
    // Appended without an expected revision, and still chained to the stream's actual last event.
    expect(verifyStreamChain(await store.readStream(notificationsStreamName(created.instanceid)))).toEqual({
      ok: true,
    });
  });
});
