import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nameBasedId, PersonalData, recordMessage, SecretBox, type DataKeyCreated } from '@gw/application';
import { inboxIdentity, inboxStreamName, type MessageReceived } from '@gw/domain-inbox';
import type { EventStore } from '@gw/event-store';
import { EsdbEventStore } from '@gw/event-store/esdb';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { runOpsAsync } from '@gw/testing';
import { foundOnDisk, rawKey, text, type Needle } from './support/data-dir-scan';
import { subscribed } from './support/delivery-fixtures';
import { allNotifications } from './support/notification-pages';
import { stackOnStore, STORES } from './support/on-store';
import { sleep, until, type Instance } from './support/stack';

/**
 * Crypto-shredding end to end (docs/api.md section 9), on both stores: `ops instances erase`
 * destroys an instance's data keys; getNotifications and the notifier then show and send its
 * messages' and acks' personal fields as null, even for a notification made before the erasure and
 * delivered after it; nothing of them can be found in any file under DATA_DIR; later traffic is
 * readable again. A sealed value altered in the store is never taken for an erasure.
 */

// Long enough that the erasure, made while the receiver is down, lands between two attempts.
const RETRY_SCHEDULE = '4,4,4,4,4,4';

describe.each(STORES)('erasing an instance’s personal data on %s', (_store, onEsdb) => {
  const on = stackOnStore(onEsdb, { RETRY_SCHEDULE, NOTIFIER_SNAPSHOT_EVERY: '5' });
  const ops = (args: string[]) => runOpsAsync(on.stack.dataDir, args, { ...on.stack.apiEnv });

  /** A client of the stack's store, for what a test needs to see that no API shows. */
  async function withStore<T>(work: (store: EventStore) => Promise<T>): Promise<T> {
    const connection = on.stack.apiEnv['EVENT_STORE'];
    const store = connection
      ? new EsdbEventStore({ connectionString: connection })
      : new SqliteEventStore({ file: join(on.stack.dataDir, 'events.sqlite') });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }

  /** SECRETS_KEY: given on EventStoreDB, else generated into DATA_DIR (docs/api.md section 5). */
  const secretsKey = () => {
    const given = on.stack.apiEnv['SECRETS_KEY'];
    return given
      ? Buffer.from(given, 'hex')
      : Buffer.from(readFileSync(join(on.stack.dataDir, 'secrets.key'), 'utf8').trim(), 'base64');
  };

  /** The data keys of an instance, sealed and raw, as they are before the erasure. */
  const dataKeysOf = (instance: Instance) =>
    withStore(async (store) => {
      const events = await store.readAll({ filter: { streamNamePrefixes: [`datakey-${instance.instanceid}-`] } });
      return events.map((e) => {
        const { sealedKey } = e.data as DataKeyCreated['data'];
        return { sealedKey, key: Buffer.from(new SecretBox(secretsKey()).openFresh(sealedKey), 'base64') };
      });
    });

  const dataDirs = () => [...new Set([on.stack.dataDir, on.stack.notifier!.dataDir])];

  it('shows and sends erased fields as null, leaves nothing of them on disk, and reads later traffic again', async () => {
    const tag = randomBytes(6).toString('hex');
    const person = {
      chatId: `5511${tag}@c.us`,
      from: `5522${tag}@c.us`,
      senderName: `Ana ${tag}`,
      body: `private body ${tag} ✓`,
    };
    const ackChat = `5533${tag}@c.us`;
    let down = false;
    const { instance, path } = await subscribed(on.stack, on.receiver, () => (down ? { status: 503 } : {}));

    await on.stack.message(instance, { id: 'before-1', ...person, time: 1_767_225_600 });
    await until('the first message delivered', () => on.receiver.at(path).some((r) => r.delivered));
    await on.stack.ack(instance, { id: 'before-1', chatId: ackChat, status: 'read', time: 1_767_225_601 });
    await until('the ack delivered', () => on.receiver.at(path).filter((r) => r.delivered).length === 2);
    // Delivered in clear, as recorded.
    expect(on.receiver.at(path)[0].json.messages).toEqual([
      { id: 'before-1', ...person, fromMe: false, type: 'chat', time: 1_767_225_600 },
    ]);
    expect(on.receiver.at(path)[1].json.ack).toEqual([
      { id: 'before-1', chatId: ackChat, status: 'read', time: 1_767_225_601 },
    ]);

    // A notification made before the erasure, not delivered yet: the receiver is down.
    down = true;
    await on.stack.message(instance, { id: 'pending', ...person, time: 1_767_225_602 });
    await until('a failed attempt of the pending one', () => on.receiver.at(path).some((r) => r.json?.sequence === 3));

    const clearValues: Needle[] = [
      ...Object.entries(person).map(([field, value]) => text(field, value)),
      text('ack chatId', ackChat),
    ];
    // Sealed everywhere even before the erasure: the log, the read models, the notifier's snapshots.
    await until('a snapshot of the notifier', () =>
      withStore(
        async (store) => (await store.readAll({ filter: { eventTypes: ['NotifierSnapshotChunk'] } })).length > 0,
      ),
    );
    expect(foundOnDisk(dataDirs(), clearValues)).toEqual([]);
    const keys = await dataKeysOf(instance);
    expect(keys).toHaveLength(1);
    const keyNeedles = keys.flatMap(({ sealedKey, key }) => [
      text('sealed data key', sealedKey),
      ...rawKey('data key', key),
    ]);
    // The scan sees the store's files: the sealed key is on disk until the erasure (embedded store).
    if (!onEsdb) expect(foundOnDisk(dataDirs(), keyNeedles).length).toBeGreaterThan(0);

    const erased = await ops(['instances', 'erase', '--instance', instance.instanceid]);
    expect(erased).toMatchObject({ status: 0, stderr: '' });
    const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    expect(JSON.parse(erased.stdout)).toEqual({ instance: instance.instanceid, erasedDays: [today] });
    expect(erased.stdout).not.toContain(keys[0].sealedKey);

    // Past the processes' key caches (a second at most), the receiver comes back.
    await sleep(1200);
    down = false;
    const resent = await until(
      'the pending one delivered',
      () => on.receiver.at(path).find((r) => r.json?.sequence === 3 && r.delivered),
      20_000,
    );
    expect(resent.json.messages).toEqual([
      {
        id: 'pending',
        chatId: null,
        from: null,
        senderName: null,
        body: null,
        fromMe: false,
        type: 'chat',
        time: 1_767_225_602,
      },
    ]);

    const listed = await allNotifications(on.stack, instance);
    expect(listed.map((n) => n.body['messages'] ?? n.body['ack'])).toEqual([
      [
        {
          id: 'before-1',
          chatId: null,
          from: null,
          senderName: null,
          body: null,
          fromMe: false,
          type: 'chat',
          time: 1_767_225_600,
        },
      ],
      [{ id: 'before-1', chatId: null, status: 'read', time: 1_767_225_601 }],
      [
        {
          id: 'pending',
          chatId: null,
          from: null,
          senderName: null,
          body: null,
          fromMe: false,
          type: 'chat',
          time: 1_767_225_602,
        },
      ],
    ]);

    // Nothing of the instance's personal fields, nor of its key, in any file under DATA_DIR.
    expect(foundOnDisk(dataDirs(), [...clearValues, ...keyNeedles])).toEqual([]);

    // The events stay; later traffic gets a new key and is readable.
    expect(await withStore((store) => store.readStream(`inbox-${instance.instanceid}`))).toHaveLength(3);
    await on.stack.message(instance, { id: 'after', ...person, time: 1_767_225_603 });
    const after = await until('the later message delivered', () =>
      on.receiver.at(path).find((r) => r.json?.messages?.[0]?.id === 'after'),
    );
    expect(after.json.messages[0]).toMatchObject(person);
    expect((await allNotifications(on.stack, instance, 100, 3))[0].body['messages'][0]).toMatchObject(person);
  }, 90_000);

  it('erases, at its start, the days past MESSAGE_RETENTION_DAYS and keeps the younger ones', async () => {
    const { instance } = await subscribed(on.stack, on.receiver);
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    // Traffic recorded on days long past, as a gateway in-process would have recorded it then.
    await withStore(async (store) => {
      const personal = PersonalData.on(store, new SecretBox(secretsKey()));
      for (const [id, daysAgo] of [
        ['old', 40],
        ['young', 10],
      ] as const) {
        await recordMessage(
          store,
          personal,
          instance.instanceid,
          { id, chatId: 'c@c.us', from: '', fromMe: false, senderName: '', type: 'chat', body: id, time: 1 },
          day(daysAgo),
        );
      }
    });
    await on.stack.startNotifier({ ...on.stack.notifierEnv, MESSAGE_RETENTION_DAYS: '30' });
    const erasures = await until('the retention erasure', () =>
      withStore(async (store) => {
        const events = await store.readStream(`erasure-${instance.instanceid}`);
        return events.length > 0 && events.map((e) => e.data);
      }),
    );
    const compact = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
    expect(erasures).toEqual([
      { instanceId: instance.instanceid, days: [compact(day(40))], reason: 'retention', at: expect.any(String) },
    ]);
    await withStore(async (store) => {
      expect(await store.readLastEvent(`datakey-${instance.instanceid}-${compact(day(40))}`)).toBeUndefined();
      expect(await store.readLastEvent(`datakey-${instance.instanceid}-${compact(day(10))}`)).toBeDefined();
    });
  }, 60_000);

  it('erases a deleted instance too, and refuses an unknown one with a clear message', async () => {
    const { instance } = await subscribed(on.stack, on.receiver);
    await on.stack.message(instance, { id: 'gone', body: 'from a deleted instance' });
    expect((await on.stack.deleteInstance(instance)).status).toBe(200);
    const erased = await ops(['instances', 'erase', '--instance', instance.instanceid]);
    expect(erased.status).toBe(0);
    expect(JSON.parse(erased.stdout).erasedDays).toHaveLength(1);
    // EventStoreDB's soft delete leaves the event in $all until a scavenge; the stream is gone.
    expect(await dataKeysOf(instance)).toHaveLength(onEsdb ? 1 : 0);
    await withStore(async (store) => {
      const day = JSON.parse(erased.stdout).erasedDays[0];
      expect(await store.readLastEvent(`datakey-${instance.instanceid}-${day}`)).toBeUndefined();
      expect((await store.readStream(`erasure-${instance.instanceid}`)).map((e) => e.data)).toEqual([
        { instanceId: instance.instanceid, days: [day], reason: 'operator', at: expect.any(String) },
      ]);
    });

    const unknown = await ops(['instances', 'erase', '--instance', 'no-such-instance']);
    expect(unknown).toMatchObject({ status: 1, stdout: '', stderr: 'error: no instance no-such-instance\n' });
  }, 60_000);

  it('sends nothing of a message whose sealed value was altered in the store: its attempts fail as unreadable', async () => {
    const { instance, path } = await subscribed(on.stack, on.receiver);
    await withStore(async (store) => {
      const personal = PersonalData.on(store, new SecretBox(secretsKey()));
      const receivedAt = new Date().toISOString();
      const message = await personal.sealMessage(
        instance.instanceid,
        {
          id: 'altered',
          chatId: 'c@c.us',
          from: '',
          fromMe: false,
          senderName: '',
          type: 'chat',
          body: 'secret',
          time: 1,
        },
        receivedAt,
      );
      // A character inside the ciphertext (the last one may only carry padding bits).
      const at = message.sealed.length - 10;
      const sealed = `${message.sealed.slice(0, at)}${message.sealed[at] === 'A' ? 'B' : 'A'}${message.sealed.slice(at + 1)}`;
      const event: MessageReceived = {
        type: 'MessageReceived',
        data: { instanceId: instance.instanceid, message: { ...message, sealed }, receivedAt },
      };
      await store.append(
        inboxStreamName(instance.instanceid),
        [{ id: nameBasedId(inboxIdentity(event)), type: event.type, data: event.data }],
        'any',
      );
    });
    const unreadable = await until('an attempt failed as unreadable', async () =>
      (await on.stack.logs(instance)).find((a) => a.status === 0 && /^personal data unreadable/.test(a.error)),
    );
    expect(unreadable).toMatchObject({
      sequence: 1,
      error: 'personal data unreadable: a sealed field does not open under its data key',
    });
    // Later traffic is not held back by it, and nothing of the altered one reached the receiver.
    await on.stack.message(instance, { id: 'fine', body: 'readable' });
    const fine = await until('the next message delivered', () =>
      on.receiver.at(path).find((r) => r.delivered && r.json?.messages?.[0]?.id === 'fine'),
    );
    expect(fine.json.sequence).toBe(2);
    expect(on.receiver.at(path).filter((r) => r.json?.sequence === 1)).toEqual([]);
  }, 60_000);
});
