import { randomBytes } from 'node:crypto';
import type { Message, SealedMessage } from '@gw/domain-inbox';
import { recordMessage } from '../record-inbound';
import { SecretBox } from '../secret-box';
import { dataKeyDays, erasePersonalData } from './erase';
import { dataKeyStreamName, erasureStreamName } from './personal-data.events';
import { ERASED, PersonalData } from './personal-fields';
import { pastRetention, RetentionSweep } from './retention';
import { STORES, type StoreUnderTest } from './test/stores';

const DAY_MS = 86_400_000;
const message: Message = {
  id: 'm',
  chatId: '5511999999999@c.us',
  from: '5511999999999@c.us',
  fromMe: false,
  senderName: 'Ana',
  type: 'chat',
  body: 'hi',
  time: 1_767_225_600,
};
const box = new SecretBox(randomBytes(32));

describe('pastRetention', () => {
  it('keeps a day until it lies wholly more than the limit back, and everything at 0', () => {
    expect(pastRetention('20260101', new Date('2026-01-31T23:59:59.999Z'), 30)).toBe(false);
    expect(pastRetention('20260101', new Date('2026-02-01T00:00:00.000Z'), 30)).toBe(true);
    expect(pastRetention('20200101', new Date('2026-02-01T00:00:00.000Z'), 0)).toBe(false);
  });
});

describe.each(STORES)('MESSAGE_RETENTION_DAYS on %s', (_name, open) => {
  let t: StoreUnderTest;
  beforeEach(async () => {
    t = await open();
  });
  afterEach(() => t.close());

  const instance = async (instanceId: string) =>
    t.store.append(
      `instance-${instanceId}`,
      [{ id: `created-${instanceId}`, type: 'InstanceCreated', data: { instanceId } }],
      'no_stream',
    );

  it('erases a day older than the limit and keeps a younger one, as the clock moves on', async () => {
    const personal = PersonalData.on(t.store, box);
    await instance('ret1');
    const now = Date.now();
    const old = new Date(now - 40 * DAY_MS).toISOString();
    const young = new Date(now - 10 * DAY_MS).toISOString();
    await recordMessage(t.store, personal, 'ret1', { ...message, id: 'old' }, old);
    await recordMessage(t.store, personal, 'ret1', { ...message, id: 'young' }, young);
    const stored = new Map(
      (await t.store.readStream('inbox-ret1')).map((e) => [
        (e.data as { message: SealedMessage }).message.id,
        (e.data as { message: SealedMessage }).message,
      ]),
    );
    const body = async (id: string) => (await personal.openMessage('ret1', stored.get(id)!, ERASED)).body;

    let clock = new Date(now);
    const sweep = new RetentionSweep(t.store, { retentionDays: 30, now: () => clock });
    const oldDay = old.slice(0, 10).replace(/-/g, '');
    const youngDay = young.slice(0, 10).replace(/-/g, '');
    expect(await sweep.sweep()).toEqual([{ instanceId: 'ret1', days: [oldDay] }]);
    personal.keys.forget();
    expect(await body('old')).toBe(ERASED);
    expect(await body('young')).toBe('hi');
    expect(await t.store.readStream(dataKeyStreamName('ret1', oldDay))).toEqual([]);
    expect((await t.store.readStream(erasureStreamName('ret1'))).map((e) => e.data)).toEqual([
      { instanceId: 'ret1', days: [oldDay], reason: 'retention', at: clock.toISOString() },
    ]);
    // Nothing more to do until the young day is past the limit too: then it goes, recorded once.
    expect(await sweep.sweep()).toEqual([]);
    clock = new Date(now + 25 * DAY_MS);
    expect(await sweep.sweep()).toEqual([{ instanceId: 'ret1', days: [youngDay] }]);
    personal.keys.forget();
    expect(await body('young')).toBe(ERASED);
    // A sweeper started afresh (a restarted notifier; on EventStoreDB the deleted keys stay in $all
    // until a scavenge) finds nothing more to erase and records nothing.
    expect(await new RetentionSweep(t.store, { retentionDays: 30, now: () => clock }).sweep()).toEqual([]);
    expect(await t.store.readStream(erasureStreamName('ret1'))).toHaveLength(2);
  });

  it('keeps everything with 0, and sweeps only the instances it owns', async () => {
    const personal = PersonalData.on(t.store, box);
    const old = new Date(Date.now() - 400 * DAY_MS).toISOString();
    for (const id of ['own', 'other']) {
      await instance(id);
      await recordMessage(t.store, personal, id, message, old);
    }
    expect(await new RetentionSweep(t.store, { retentionDays: 0 }).sweep()).toEqual([]);
    const erased = await new RetentionSweep(t.store, { retentionDays: 30, owns: (id) => id === 'own' }).sweep();
    expect(erased.map((e) => e.instanceId)).toEqual(['own']);
    expect(await t.store.readStream(erasureStreamName('other'))).toEqual([]);
  });

  it('tells apart instances whose ids extend one another, in a sweep and in an erasure of every day', async () => {
    const personal = PersonalData.on(t.store, box);
    const old = new Date(Date.now() - 40 * DAY_MS).toISOString();
    const day = old.slice(0, 10).replace(/-/g, '');
    for (const id of ['abc', 'abc-1', 'abc-1-2']) {
      await instance(id);
      await recordMessage(t.store, personal, id, message, old);
    }
    expect(await dataKeyDays(t.store, 'abc')).toEqual([day]);
    // A sweeper that owns one of them erases that one's key only.
    const erased = await new RetentionSweep(t.store, { retentionDays: 30, owns: (id) => id === 'abc-1' }).sweep();
    expect(erased).toEqual([{ instanceId: 'abc-1', days: [day] }]);
    expect(await dataKeyDays(t.store, 'abc-1')).toEqual([]);
    // An operator's erasure of every day of `abc` leaves `abc-1-2`'s key.
    expect(await erasePersonalData(t.store, { instanceId: 'abc', days: null, reason: 'operator', at: old })).toEqual([
      day,
    ]);
    expect(await dataKeyDays(t.store, 'abc')).toEqual([]);
    expect(await dataKeyDays(t.store, 'abc-1-2')).toEqual([day]);
  });
});
