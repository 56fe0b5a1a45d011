import { randomBytes } from 'node:crypto';
import type { SealedAck } from '@gw/domain-inbox';
import { recordAck, recordMessage } from '../record-inbound';
import { SecretBox } from '../secret-box';
import { erasePersonalData } from './erase';
import { dataKeyStreamName, erasureStreamName } from './personal-data.events';
import { ERASED, PersonalData, PersonalDataUnreadable } from './personal-fields';
import { ack, box, message, NOW, openWithInstance, storedMessage } from './test/personal-fields-setup';
import { STORES, type StoreUnderTest } from './test/stores';

// Erasure and tampering: an erased field opens as the marker, an altered one is an error, never an
// erasure.

describe.each(STORES)('personal fields of messages and acks, erased or altered on %s', (_name, open) => {
  let t: StoreUnderTest;
  let personal: PersonalData;
  let instanceId: string;

  beforeEach(async () => {
    ({ t, personal, instanceId } = await openWithInstance(open));
  });
  afterEach(() => t.close());

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
