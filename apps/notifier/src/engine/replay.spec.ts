import type { NotifiableItem } from '@gw/domain-notifications';
import { replayLog, type ReplayStep } from './replay';

/** The replay at start as a pure function: the steps it met in the log, the work left once caught up. */

const item = (id: string): NotifiableItem => ({
  sourceEventId: id,
  message: { id, fromMe: false, type: 'chat', sealed: `pd2.${id}`, time: 1 },
});
const notifiable = (instanceId: string, id: string, position: bigint): ReplayStep => ({
  type: 'notifiable',
  instanceId,
  item: item(id),
  position,
});
const created = (instanceId: string, webhookId: string, sources: string[], position: bigint): ReplayStep => ({
  type: 'created',
  instanceId,
  webhookId,
  sourceEventIds: sources,
  position,
});
const off = (instanceId: string, position: bigint, pending: string[] = []): ReplayStep => ({
  type: 'switchedOff',
  instanceId,
  position,
  reason: 'delivery was switched off',
  pending,
});

describe('the replay at start', () => {
  it('notifies traffic after the checkpoint that no notification carries, in record order', () => {
    const work = replayLog(10n, [
      notifiable('i1', 'a', 5n),
      notifiable('i1', 'b', 11n),
      notifiable('i2', 'c', 12n),
      notifiable('i1', 'd', 13n),
    ]);
    expect(work.notify.map((c) => [c.instanceId, c.item.sourceEventId, c.position])).toEqual([
      ['i1', 'b', 11n],
      ['i2', 'c', 12n],
      ['i1', 'd', 13n],
    ]);
    expect(work.cancel).toEqual([]);
  });

  it('does not notify again traffic a notification made after the checkpoint already carries', () => {
    const work = replayLog(10n, [
      notifiable('i1', 'b', 11n),
      notifiable('i1', 'c', 12n),
      created('i1', 'w1', ['b'], 14n),
    ]);
    expect(work.notify.map((c) => c.item.sourceEventId)).toEqual(['c']);
  });

  it('cancels what was pending when delivery went off while no notifier followed the log', () => {
    const work = replayLog(0n, [off('i1', 20n, ['w1', 'w2'])]);
    expect(work.cancel).toEqual([{ instanceId: 'i1', webhookIds: ['w1', 'w2'], reason: 'delivery was switched off' }]);
  });

  it('makes no notification of traffic recorded before delivery went off, and cancels one made of it after', () => {
    // b was recorded while delivery was on; delivery went off at 15; a notification of b was made at
    // 16 anyway (by a notifier that had not seen 15 yet): a live notifier would have cancelled it.
    const work = replayLog(10n, [
      notifiable('i1', 'a', 11n),
      notifiable('i1', 'b', 12n),
      off('i1', 15n),
      created('i1', 'wb', ['b'], 16n),
    ]);
    expect(work.notify).toEqual([]);
    expect(work.cancel).toEqual([{ instanceId: 'i1', webhookIds: ['wb'], reason: 'delivery was switched off' }]);
  });

  it('keeps traffic recorded after delivery came back on, and leaves other instances alone', () => {
    const work = replayLog(10n, [
      notifiable('i2', 'x', 11n),
      off('i1', 12n),
      notifiable('i1', 'c', 13n),
      created('i1', 'wc', ['c'], 14n),
    ]);
    expect(work.notify.map((c) => c.item.sourceEventId)).toEqual(['x']);
    expect(work.cancel).toEqual([]);
  });
});
