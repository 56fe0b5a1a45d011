import type { Message, SealedAck, SealedMessage } from '@gw/domain-inbox';
import { recordAck, recordMessage } from '../record-inbound';
import { DataKeys } from './data-keys';
import { erasePersonalData } from './erase';
import { dataKeyStreamName } from './personal-data.events';
import { ERASED, PersonalData, PersonalDataUnreadable } from './personal-fields';
import { ack, box, message, NOW, openWithInstance, storedMessage } from './test/personal-fields-setup';
import { STORES, type StoreUnderTest } from './test/stores';

// Sealing: one key per instance and UTC day, what a sealed value holds, and opening it again.

describe.each(STORES)('personal fields of messages and acks on %s', (_name, open) => {
  let t: StoreUnderTest;
  let personal: PersonalData;
  let instanceId: string;

  beforeEach(async () => {
    ({ t, personal, instanceId } = await openWithInstance(open));
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
    const keyStream = dataKeyStreamName(instanceId, '20260304');
    // Reads of the key's stream only: EventStoreDB's append reads the instance's stream through
    // this proxy too (the key is made only for an instance that exists).
    const counted = new Proxy(t.store, {
      get: (target, name) =>
        name === 'readLastEvent'
          ? (stream: string) => (stream === keyStream && reads.push(stream), target.readLastEvent(stream))
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
});
