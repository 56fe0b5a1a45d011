import type { NotificationEvent } from './notification.events';
import { nextToAttempt, PROBE_AFTER_FAILURES } from './notifications.state';
import {
  cancelled,
  created,
  deadLettered,
  delivered,
  failed,
  plus,
  state,
  t0,
} from './__fixtures__/notifications.fixtures';

/** docs/api.md section 11: a failing endpoint is probed, not flooded. */

/** Five notifications created at t0, each failing its first attempt at t0 + n s, retry due at +100 s + n s. */
const fiveFailed = (): NotificationEvent[] => {
  const events: NotificationEvent[] = [];
  for (let n = 1; n <= 5; n++) events.push(created(`wh-${n}`, n, t0));
  for (let n = 1; n <= 5; n++) events.push(failed(`wh-${n}`, n, 1, plus(n), plus(100 + n)));
  return events;
};
const next = (events: NotificationEvent[]) => nextToAttempt(state(events))?.webhookId;

describe('which notification of an instance is attempted next', () => {
  it('is the earliest due, then the lowest sequence, while the endpoint has not failed 5 times in a row', () => {
    expect(next([created('wh-1', 1, plus(2)), created('wh-2', 2, plus(1))])).toBe('wh-2');
    expect(next([created('wh-1', 1, t0), created('wh-2', 2, t0)])).toBe('wh-1');
    const four = fiveFailed().filter((e) => !(e.type === 'DeliveryAttemptFailed' && e.data.webhookId === 'wh-5'));
    expect(state(four).failing).toEqual({ consecutive: 4, last: 'wh-4', since: plus(1) });
    // wh-5 has never been attempted: due at once, it goes first.
    expect(next(four)).toBe('wh-5');
  });

  it(`after ${PROBE_AFTER_FAILURES} failures in a row, only the one that failed last, even while others are overdue`, () => {
    const events = fiveFailed();
    expect(state(events).failing).toEqual({ consecutive: 5, last: 'wh-5', since: plus(1) });
    // wh-1's retry is due first, yet wh-5 is the probe: the others wait, their attempts unspent.
    expect(next(events)).toBe('wh-5');
    expect(next([...events, created('wh-6', 6, plus(10))])).toBe('wh-5');
    // The probe fails again: still the probe, at its next retry.
    const again = [...events, failed('wh-5', 5, 2, plus(106), plus(400))];
    expect(nextToAttempt(state(again))).toMatchObject({ webhookId: 'wh-5', nextAttemptAt: plus(400) });
    expect(state(again).failing).toEqual({ consecutive: 6, last: 'wh-5', since: plus(1) });
  });

  it('goes back to every due notification once an attempt succeeds', () => {
    const events = [...fiveFailed(), delivered('wh-5', 5, 2, plus(106))];
    expect(state(events).failing).toBeUndefined();
    expect(next(events)).toBe('wh-1');
  });

  it('takes the earliest due as the next probe when the probe is dead-lettered or cancelled', () => {
    expect(next([...fiveFailed(), deadLettered('wh-5', 5, plus(106))])).toBe('wh-1');
    expect(next([...fiveFailed(), cancelled('wh-5', 5, 'test', plus(106))])).toBe('wh-1');
    // Still failing: the count goes on from where it was.
    expect(state([...fiveFailed(), deadLettered('wh-5', 5, plus(106))]).failing?.consecutive).toBe(5);
  });
});
