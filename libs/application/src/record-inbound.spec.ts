import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { SealedMessage } from '@gw/domain-inbox';
import { SqliteEventStore } from '@gw/event-store/sqlite';
import { nameBasedId } from './ids';
import { PersonalData } from './personal-data';
import { recordAck, recordMessage, UnknownInstance } from './record-inbound';
import { SecretBox } from './secret-box';

describe('recording inbound traffic', () => {
  let dir: string;
  let store: SqliteEventStore;
  let personal: PersonalData;
  const message = {
    id: 'm1',
    chatId: 'c1',
    from: '123',
    fromMe: false,
    senderName: 'Ann',
    type: 'chat',
    body: 'hi',
    time: 1700000000,
  };
  const now = '2026-01-01T00:00:00.000Z';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-inbound-'));
    store = new SqliteEventStore({ file: join(dir, 'events.sqlite') });
    personal = PersonalData.on(store, new SecretBox(randomBytes(32)));
    await store.append(
      'instance-i1',
      [{ id: 'created', type: 'InstanceCreated', data: { instanceId: 'i1' } }],
      'no_stream',
    );
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records a message once per message id, in the inbox stream, not the instance stream', async () => {
    await recordMessage(store, personal, 'i1', message, now);
    await recordMessage(store, personal, 'i1', { ...message, body: 'retried' }, now);
    const inbox = await store.readStream('inbox-i1');
    expect(inbox.map((e) => e.type)).toEqual(['MessageReceived']);
    expect((await personal.openMessage('i1', (inbox[0].data as { message: SealedMessage }).message, null)).body).toBe(
      'hi',
    );
    expect(await store.readStream('instance-i1')).toHaveLength(1);
  });

  it('records an ack once per message id and status', async () => {
    const ack = { id: 'm1', chatId: 'c1', status: 'delivered' as const, time: 1700000001 };
    await recordAck(store, personal, 'i1', ack, now);
    await recordAck(store, personal, 'i1', ack, now);
    await recordAck(store, personal, 'i1', { ...ack, status: 'read' }, now);
    expect((await store.readStream('inbox-i1')).map((e) => (e.data as { ack: { status: string } }).ack.status)).toEqual(
      ['delivered', 'read'],
    );
  });

  it('refuses traffic for an unknown instance, and for a deleted one', async () => {
    await expect(recordMessage(store, personal, 'nope', message, now)).rejects.toBeInstanceOf(UnknownInstance);
    await store.append(
      'instance-i1',
      [{ id: 'deleted', type: 'InstanceDeleted', data: { instanceId: 'i1', deletedAt: now } }],
      'any',
    );
    await expect(recordMessage(store, personal, 'i1', message, now)).rejects.toBeInstanceOf(UnknownInstance);
    expect(await store.readStream('inbox-i1')).toEqual([]);
    // No data key is made for an instance that cannot record.
    expect(await store.readAll({ filter: { streamNamePrefixes: ['datakey-'] } })).toEqual([]);
  });

  it('refuses a message whose instance is deleted while it is sealed: the store checks with the append', async () => {
    // A first message makes the day's data key, so the second one is sealed without any append.
    await recordMessage(store, personal, 'i1', message, now);
    const recording = recordMessage(store, personal, 'i1', { ...message, id: 'm2' }, now);
    // The deletion is submitted before the message's append (sealing it takes a turn at least): a
    // check read before the append would have found the instance still there.
    const deletion = store.append(
      'instance-i1',
      [{ id: 'deleted', type: 'InstanceDeleted', data: { instanceId: 'i1', deletedAt: now } }],
      'any',
    );
    await expect(recording).rejects.toBeInstanceOf(UnknownInstance);
    await deletion;
    expect((await store.readStream('inbox-i1')).map((e) => (e.data as { message: { id: string } }).message.id)).toEqual(
      ['m1'],
    );
  });

  it('derives stable UUID-shaped ids from names', () => {
    expect(nameBasedId('a')).toBe(nameBasedId('a'));
    expect(nameBasedId('a')).not.toBe(nameBasedId('b'));
    expect(nameBasedId('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
