import { randomBytes } from 'node:crypto';
import type { Ack, Message, SealedAck, SealedMessage } from '@gw/domain-inbox';
import { recordAck, recordMessage } from '../record-inbound';
import { SecretBox } from '../secret-box';
import { DataKeys } from './data-keys';
import { erasePersonalData } from './erase';
import { dataKeyStreamName, erasureStreamName } from './personal-data.events';
import { ERASED, PersonalData, PersonalDataUnreadable } from './personal-fields';
import { STORES, type StoreUnderTest } from './test/stores';

const message: Message = {
  id: 'm1',
  chatId: '5511999999999@c.us',
  from: '5511888888888@c.us',
  fromMe: false,
  senderName: 'Ana Souza',
  type: 'chat',
  body: 'Olá, tudo bem? ✓',
  time: 1_767_225_600,
};
const ack: Ack = { id: 'm1', chatId: '5511777777777@c.us', status: 'read', time: 1_767_225_601 };
const NOW = '2026-03-04T10:00:00.000Z';
const box = new SecretBox(randomBytes(32));

const storedMessage = async (t: StoreUnderTest, instanceId: string, id = 'm1') =>
  (
    (await t.store.readStream(`inbox-${instanceId}`)).find(
      (e) => (e.data as { message?: SealedMessage }).message?.id === id,
    )!.data as { message: SealedMessage }
  ).message;

describe.each(STORES)('personal fields of messages and acks on %s', (_name, open) => {
  let t: StoreUnderTest;
  let personal: PersonalData;
  let instance = 0;
  let instanceId: string;

  beforeEach(async () => {
    t = await open();
    personal = PersonalData.on(t.store, box);
    instanceId = `pd${++instance}`;
    await t.store.append(
      `instance-${instanceId}`,
      [{ id: `c${instance}`, type: 'InstanceCreated', data: { instanceId } }],
      'no_stream',
    );
  });
  afterEach(() => t.close());

  it('stores the personal fields sealed together under the day key, and opens them again', async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    await recordAck(t.store, personal, instanceId, ack, NOW);
    const stored = await storedMessage(t, instanceId);
    const { keyId } = (await t.store.readLastEvent(dataKeyStreamName(instanceId, '20260304')))!.data as {
      keyId: string;
    };
    // The instance is not repeated in the value: the key id's day and random part are.
    expect(keyId.startsWith(`${instanceId}.20260304.`)).toBe(true);
    expect(stored).toEqual({
      id: 'm1',
      fromMe: false,
      type: 'chat',
      time: message.time,
      sealed: expect.stringMatching(/^pd2\.20260304\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/),
    });
    expect(stored.sealed.startsWith(`pd2.${keyId.slice(instanceId.length + 1)}.`)).toBe(true);
    expect(JSON.stringify((await t.store.readAll()).map((e) => e.data))).not.toMatch(/5511|Ana Souza|Olá/);
    // Opened in the receiver's shape, its fields in their usual order.
    expect(JSON.stringify(await personal.openMessage(instanceId, stored, null))).toBe(JSON.stringify(message));
    const storedAck = ((await t.store.readStream(`inbox-${instanceId}`))[1].data as { ack: SealedAck }).ack;
    expect(storedAck).toEqual({
      id: 'm1',
      status: 'read',
      time: ack.time,
      sealed: expect.stringMatching(/^pd2\.20260304\./),
    });
    expect(await personal.openAck(instanceId, storedAck, null)).toEqual(ack);
    // Another process (its own key cache) opens them as well.
    expect(await PersonalData.on(t.openAnother(), box).openMessage(instanceId, stored, null)).toEqual(message);
  });

  it('records a retried message once although each try seals differently', async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    await recordMessage(
      t.store,
      PersonalData.on(t.openAnother(), box),
      instanceId,
      { ...message, body: 'retried' },
      NOW,
    );
    const inbox = await t.store.readStream(`inbox-${instanceId}`);
    expect(inbox).toHaveLength(1);
    expect(
      (await personal.openMessage(instanceId, (inbox[0].data as { message: SealedMessage }).message, null)).body,
    ).toBe(message.body);
  });

  it('uses one key per instance and UTC day, made once even when two processes race for it', async () => {
    const other = PersonalData.on(t.openAnother(), box);
    await Promise.all([
      recordMessage(t.store, personal, instanceId, { ...message, id: 'a' }, '2026-03-04T23:59:59.999Z'),
      recordMessage(t.store, other, instanceId, { ...message, id: 'b' }, '2026-03-04T00:00:00.000Z'),
      recordMessage(t.store, other, instanceId, { ...message, id: 'c' }, '2026-03-05T00:00:00.000Z'),
    ]);
    expect(await t.store.readStream(dataKeyStreamName(instanceId, '20260304'))).toHaveLength(1);
    expect(await t.store.readStream(dataKeyStreamName(instanceId, '20260305'))).toHaveLength(1);
    for (const id of ['a', 'b', 'c'])
      expect((await personal.openMessage(instanceId, await storedMessage(t, instanceId, id), null)).body).toBe(
        message.body,
      );
  });

  it('opens an erased field as the erased marker, in this process and, within a second, in another', async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    await recordMessage(t.store, personal, instanceId, { ...message, id: 'm2' }, '2026-03-05T08:00:00.000Z');
    const stored = await storedMessage(t, instanceId);
    const running = PersonalData.on(t.openAnother(), box);
    expect((await running.openMessage(instanceId, stored, null)).body).toBe(message.body);

    expect(await erasePersonalData(t.store, { instanceId, days: null, reason: 'operator', at: NOW })).toEqual([
      '20260304',
      '20260305',
    ]);
    expect(await t.store.readStream(dataKeyStreamName(instanceId, '20260304'))).toEqual([]);
    expect(await t.store.readLastEvent(dataKeyStreamName(instanceId, '20260305'))).toBeUndefined();
    expect((await t.store.readStream(erasureStreamName(instanceId))).map((e) => [e.type, e.data])).toEqual([
      ['PersonalDataErased', { instanceId, days: ['20260304', '20260305'], reason: 'operator', at: NOW }],
    ]);
    expect(await PersonalData.on(t.openAnother(), box).openSealed(instanceId, stored.sealed, 'message')).toBe(ERASED);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await running.openMessage(instanceId, stored, null)).toEqual({
      ...message,
      chatId: null,
      from: null,
      senderName: null,
      body: null,
    });
    expect(await running.openMessage(instanceId, stored, '[erased]')).toMatchObject({
      body: '[erased]',
      id: 'm1',
      time: message.time,
    });
    // The events stay.
    expect(await t.store.readStream(`inbox-${instanceId}`)).toHaveLength(2);
  });

  it('seals a message recorded after the erasure under a new key, readable again', async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    const before = await storedMessage(t, instanceId);
    await erasePersonalData(t.store, { instanceId, days: null, reason: 'operator', at: NOW });
    personal.keys.forget();
    // A running process that has just seen the erasure (and holds the key as absent).
    const running = PersonalData.on(t.openAnother(), box);
    expect(await running.openSealed(instanceId, before.sealed, 'message')).toBe(ERASED);
    await recordMessage(t.store, personal, instanceId, { ...message, id: 'after' }, NOW);
    const after = await storedMessage(t, instanceId, 'after');
    expect(await personal.openMessage(instanceId, after, null)).toEqual({ ...message, id: 'after' });
    // Read back by other processes, from the recreated key stream, at once.
    expect(await running.openMessage(instanceId, after, null)).toEqual({ ...message, id: 'after' });
    expect(await PersonalData.on(t.openAnother(), box).openMessage(instanceId, after, null)).toEqual({
      ...message,
      id: 'after',
    });
    expect(await running.openSealed(instanceId, before.sealed, 'message')).toBe(ERASED);
    expect(await personal.openSealed(instanceId, before.sealed, 'message')).toBe(ERASED);
  });

  it('refuses a value altered in the store: an error, never taken for an erasure', async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    const { sealed } = await storedMessage(t, instanceId);
    const last = sealed.length - 5;
    const altered = `${sealed.slice(0, last)}${sealed[last] === 'A' ? 'B' : 'A'}${sealed.slice(last + 1)}`;
    await expect(personal.openSealed(instanceId, altered, 'message')).rejects.toBeInstanceOf(PersonalDataUnreadable);
    await expect(personal.openMessage(instanceId, { ...message, sealed: altered }, null)).rejects.toBeInstanceOf(
      PersonalDataUnreadable,
    );
    // Moved under another key id of the same stream: the key id names no key (it is authenticated too).
    const keyPart = sealed.split('.')[2];
    await expect(
      personal.openSealed(instanceId, sealed.replace(`.${keyPart}.`, '.00000000.'), 'message'),
    ).resolves.toBe(ERASED);
    await expect(personal.openSealed(instanceId, sealed.slice(0, 40), 'message')).rejects.toBeInstanceOf(
      PersonalDataUnreadable,
    );
    await expect(personal.openSealed(instanceId, 'not sealed', 'message')).rejects.toBeInstanceOf(
      PersonalDataUnreadable,
    );
    // An ack's sealed value moved onto a message: sealed for an ack, it does not open as a message's.
    await recordAck(t.store, personal, instanceId, ack, NOW);
    const ackSealed = ((await t.store.readStream(`inbox-${instanceId}`))[1].data as { ack: SealedAck }).ack.sealed;
    await expect(personal.openSealed(instanceId, ackSealed, 'message')).rejects.toBeInstanceOf(PersonalDataUnreadable);
    // A different SECRETS_KEY cannot open the data key: an error too, not an erasure.
    const otherKey = PersonalData.on(t.store, new SecretBox(randomBytes(32)));
    await expect(otherKey.openSealed(instanceId, sealed, 'message')).rejects.toThrow(/does not open under SECRETS_KEY/);
    await expect(otherKey.openMessage(instanceId, { ...message, sealed }, null)).rejects.toBeInstanceOf(
      PersonalDataUnreadable,
    );
    // A stored item whose `sealed` is missing is unreadable too, not a crash of the caller.
    await expect(
      personal.openMessage(instanceId, { ...message, sealed: undefined as never }, null),
    ).rejects.toBeInstanceOf(PersonalDataUnreadable);
    // The first development build's format is refused by name.
    await expect(personal.openSealed(instanceId, `pd1.${sealed.slice(4)}`, 'message')).rejects.toThrow(/pd1 format/);
  });

  it('opens a notification body, any characters included, with null where erased', async () => {
    const odd: Message = {
      ...message,
      id: 'm"2',
      senderName: 'Zoë "Z" \\ \u2028',
      body: 'line\nbreak\u0000',
      from: '',
    };
    await recordMessage(t.store, personal, instanceId, message, NOW);
    await recordMessage(t.store, personal, instanceId, odd, '2026-03-05T08:00:00.000Z');
    await recordAck(t.store, personal, instanceId, ack, NOW);
    const inbox = (await t.store.readStream(`inbox-${instanceId}`)).map(
      (e) => e.data as { message?: SealedMessage; ack?: SealedAck },
    );
    const messages = { instanceId, sequence: 7, messages: [inbox[0].message!, inbox[1].message!] };
    const acks = { instanceId, sequence: 8, ack: [inbox[2].ack!] };
    expect(await personal.openBody(messages, null)).toEqual({ instanceId, sequence: 7, messages: [message, odd] });
    expect(await personal.openBody(acks, null)).toEqual({ instanceId, sequence: 8, ack: [ack] });
    const notice = {
      instanceId,
      sequence: 9,
      instance: { event: 'renewed' as const, packageid: 'monthly', expiresAt: NOW },
    };
    expect(await personal.openBody(notice, null)).toBe(notice);

    await erasePersonalData(t.store, { instanceId, days: ['20260304'], reason: 'operator', at: NOW });
    personal.keys.forget();
    expect(await personal.openBody(messages, null)).toEqual({
      instanceId,
      sequence: 7,
      messages: [{ ...message, chatId: null, from: null, senderName: null, body: null }, odd],
    });
    expect(await personal.openBody(acks, null)).toEqual({ instanceId, sequence: 8, ack: [{ ...ack, chatId: null }] });
  });

  it('refuses to seal a message whose personal field is missing: it is not recorded', async () => {
    await expect(
      recordMessage(t.store, personal, instanceId, { ...message, senderName: undefined as never }, NOW),
    ).rejects.toThrow(/not a string/);
    expect(await t.store.readStream(`inbox-${instanceId}`)).toEqual([]);
  });

  it("binds a sealed value to its instance: under another instance's key of the same day it does not open", async () => {
    await recordMessage(t.store, personal, instanceId, message, NOW);
    const { sealed } = await storedMessage(t, instanceId);
    const other = `${instanceId}x`;
    await t.store.append(
      `instance-${other}`,
      [{ id: `c${other}`, type: 'InstanceCreated', data: { instanceId: other } }],
      'no_stream',
    );
    await recordMessage(t.store, personal, other, message, NOW);
    const { keyId } = (await t.store.readLastEvent(dataKeyStreamName(other, '20260304')))!.data as { keyId: string };
    // Named under the other instance's key, it fails authentication; under its own key id, no such key.
    const moved = `pd2.${keyId.slice(other.length + 1)}.${sealed.split('.')[3]}`;
    await expect(personal.openSealed(other, moved, 'message')).rejects.toBeInstanceOf(PersonalDataUnreadable);
    await expect(personal.openSealed(other, sealed, 'message')).resolves.toBe(ERASED);
  });

  it('reads a held key again once a second, keeping it (not unsealing it again) while its stream holds it', async () => {
    let now = 0;
    const reads: string[] = [];
    const counted = new Proxy(t.store, {
      get: (target, name) =>
        name === 'readLastEvent'
          ? (stream: string) => (reads.push(stream), target.readLastEvent(stream))
          : (Reflect.get(target, name) as unknown),
    });
    const keys = new DataKeys(counted, box, { ttlMs: 1000, now: () => now });
    const first = await keys.forSealing(instanceId, '20260304');
    expect(await keys.forOpening(first.keyId)).toBe(first);
    expect(reads).toHaveLength(1);
    now = 1500;
    expect(await keys.forOpening(first.keyId)).toBe(first);
    expect(reads).toHaveLength(2);
    await erasePersonalData(t.store, { instanceId, days: ['20260304'], reason: 'operator', at: NOW });
    now = 3000;
    expect(await keys.forOpening(first.keyId)).toBeNull();
    const second = await keys.forSealing(instanceId, '20260304');
    expect(second.keyId).not.toBe(first.keyId);
    expect(await keys.forOpening(first.keyId)).toBeNull();
  });

  it('erases the days asked for only, and a retried erasure changes nothing more', async () => {
    await recordMessage(t.store, personal, instanceId, message, '2026-03-01T12:00:00.000Z');
    await recordMessage(t.store, personal, instanceId, { ...message, id: 'm2' }, '2026-03-02T12:00:00.000Z');
    await erasePersonalData(t.store, { instanceId, days: ['20260301'], reason: 'retention', at: NOW });
    await erasePersonalData(t.store, { instanceId, days: ['20260301'], reason: 'retention', at: NOW });
    personal.keys.forget();
    expect(await personal.openSealed(instanceId, (await storedMessage(t, instanceId, 'm1')).sealed, 'message')).toBe(
      ERASED,
    );
    expect(await personal.openSealed(instanceId, (await storedMessage(t, instanceId, 'm2')).sealed, 'message')).toEqual(
      [message.chatId, message.from, message.senderName, message.body],
    );
  });
});
