import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AccountIdentity, registerAccount, withEventSchemas } from '@gw/application';
import { Codes, Refusal } from '@gw/contract';
import { loadConfig } from '@gw/config';
import type { EventStore } from '@gw/event-store';
import { MemoryEventStore } from '@gw/event-store/memory';
import { createLogger } from '@gw/logging';
import { AppModule } from './app.module';
import { CreateInstanceCommand, type CreateInstanceResult } from './instances/create-instance/create-instance.command';
import { ListInstancesQuery, type ListInstancesResult } from './instances/list-instances/list-instances.query';
import { RenewInstanceCommand } from './instances/renew-instance/renew-instance.command';
import { ReadModelsService } from './read-models/read-models.service';
import { ChangeWebhookCommand, type ChangeWebhookResult } from './webhooks/change-webhook/change-webhook.command';
import {
  GetWebhookStatusQuery,
  type WebhookStatusResult,
} from './webhooks/get-webhook-status/get-webhook-status.query';

// The API's handlers in process, on the in-memory store: the whole path from command to read model
// without HTTP or child processes (those are the e2e suites' job), fast enough to run on every change.
// Commands and queries go through the CommandBus and QueryBus, as the HTTP executor sends them.
describe('API handlers on the in-memory store', () => {
  let dir: string;
  let store: EventStore;
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>>;
  let commands: CommandBus;
  let queries: QueryBus;
  let apikey: string;
  let identity: AccountIdentity;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-handlers-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' }, dir);
    // Versioned as in main.ts.
    store = withEventSchemas(new MemoryEventStore());
    identity = new AccountIdentity(config.secrets.secretsKey);
    ({ apikey } = await registerAccount(store, identity, 'Ann@Example.com', new Date().toISOString()));
    app = await NestFactory.createApplicationContext(
      AppModule.register({ config, store, logger: createLogger('error') }),
      { logger: false },
    );
    await app.init();
    await app.get(ReadModelsService).start();
    commands = app.get(CommandBus);
    queries = app.get(QueryBus);
  });

  afterEach(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const codesOf = async (work: Promise<unknown>): Promise<string[]> => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Refusal);
    expect((error as Refusal).kind).toBe('request');
    return (error as Refusal).violations.map((v) => v.code);
  };

  it('creates an instance, registers a webhook and answers status and list from the read models', async () => {
    const created: CreateInstanceResult = await commands.execute(
      new CreateInstanceCommand('ann@example.com', apikey, 'monthly'),
    );
    expect(created).toMatchObject({ packageid: 'monthly', token: expect.stringMatching(/^gwt_/) });

    const changed: ChangeWebhookResult = await commands.execute(
      new ChangeWebhookCommand(created.instanceid, created.token, 'https://hooks.example.com/a'),
    );
    expect(changed).toMatchObject({
      webhookUrl: 'https://hooks.example.com/a',
      enabled: true,
      signingSecret: expect.stringMatching(/^whsec_/),
    });

    const status: WebhookStatusResult = await queries.execute(
      new GetWebhookStatusQuery(created.instanceid, created.token),
    );
    expect(status).toMatchObject({
      webhookUrl: 'https://hooks.example.com/a',
      enabled: true,
      instanceStatus: 'active',
    });
    const listed: ListInstancesResult = await queries.execute(new ListInstancesQuery('ann@example.com', apikey));
    expect(listed.instances.map((i) => [i.instanceid, i.webhookUrl, i.webhookEnabled])).toEqual([
      [created.instanceid, 'https://hooks.example.com/a', true],
    ]);

    // The stream holds exactly what was decided, and no secret in clear.
    const stream = await store.readStream(`instance-${created.instanceid}`);
    expect(stream.map((e) => e.type)).toEqual(['InstanceCreated', 'SigningSecretIssued', 'WebhookSet']);
    expect(JSON.stringify(stream.map((e) => e.data))).not.toContain(created.token);
  });

  it('refuses a wrong token before deciding anything, and a wrong API key', async () => {
    const created: CreateInstanceResult = await commands.execute(
      new CreateInstanceCommand('ann@example.com', apikey, 'monthly'),
    );
    const before = await store.readStream(`instance-${created.instanceid}`);
    expect(
      await codesOf(
        commands.execute(new ChangeWebhookCommand(created.instanceid, 'gwt_wrong', 'https://hooks.example.com/a')),
      ),
    ).toEqual([Codes.InstanceAuthFailed]);
    expect(await store.readStream(`instance-${created.instanceid}`)).toEqual(before);
    expect(
      await codesOf(commands.execute(new CreateInstanceCommand('ann@example.com', 'gwk_wrong', 'monthly'))),
    ).toEqual([Codes.AccountAuthFailed]);
  });

  it("renews from the stream's state, and refuses another account's instance", async () => {
    const created: CreateInstanceResult = await commands.execute(
      new CreateInstanceCommand('ann@example.com', apikey, 'monthly'),
    );
    const renewed = await commands.execute(
      new RenewInstanceCommand('ann@example.com', apikey, created.instanceid, 'annual'),
    );
    expect(Date.parse(renewed.expiresAt) - Date.parse(created.expiresAt)).toBeGreaterThanOrEqual(
      365 * 86_400_000 - 1000,
    );
    const bob = await registerAccount(store, identity, 'bob@example.com', new Date().toISOString());
    const refused = await commands
      .execute(new RenewInstanceCommand('bob@example.com', bob.apikey, created.instanceid, 'monthly'))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // Another account's instance is refused exactly like a missing one.
    expect(refused).toBeInstanceOf(Refusal);
    expect((refused as Refusal).kind).toBe('domain');
    expect((refused as Refusal).violations.map((v) => v.code)).toEqual([Codes.NoSuchInstance]);
    expect((await store.readStream(`instance-${created.instanceid}`)).map((e) => e.type)).toEqual([
      'InstanceCreated',
      'InstanceRenewed',
    ]);
  });
});
