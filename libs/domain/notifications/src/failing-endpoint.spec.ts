import type { NotificationEvent } from './notification.events';
import { nextToAttempt, PROBE_AFTER_FAILURES } from './notifications.state';
import {
  cancelled,
  created,
  deadLettered,
  delivered,
  failed,
  plus,
  resent,
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
    expect(state(four).failing).toEqual({ consecutive: 4, since: plus(1) });
    // wh-5 has never been attempted: due at once, it goes first.
    expect(next(four)).toBe('wh-5');
  });

  it(`after ${PROBE_AFTER_FAILURES} failures in a row, only the one whose retry is due first, until one succeeds`, () => {
    const events = fiveFailed();
    // wh-1's retry is due first (+101 s): it is the probe; the others wait, their attempts unspent.
    expect(state(events).failing).toEqual({ consecutive: 5, since: plus(1), probe: 'wh-1' });
    expect(next(events)).toBe('wh-1');
    // A new notification, due at once, waits too.
    expect(next([...events, created('wh-6', 6, plus(10))])).toBe('wh-1');
    // The probe fails again and its next retry comes after every other's: still the probe.
    const again = [...events, failed('wh-1', 1, 2, plus(101), plus(400))];
    expect(nextToAttempt(state(again))).toMatchObject({ webhookId: 'wh-1', nextAttemptAt: plus(400) });
    expect(state(again).failing).toEqual({ consecutive: 6, since: plus(1), probe: 'wh-1' });
  });

  it('takes as the probe the one due first, whichever failed last', () => {
    // wh-5 fails last, but wh-3's retry is due first.
    const events: NotificationEvent[] = [];
    for (let n = 1; n <= 5; n++) events.push(created(`wh-${n}`, n, t0));
    for (let n = 1; n <= 5; n++) events.push(failed(`wh-${n}`, n, 1, plus(n), plus(n === 3 ? 50 : 100 + n)));
    expect(next(events)).toBe('wh-3');
  });

  it('goes back to every due notification once an attempt succeeds', () => {
    const events = [...fiveFailed(), delivered('wh-5', 5, 2, plus(106))];
    expect(state(events).failing).toBeUndefined();
    expect(next(events)).toBe('wh-1');
  });

  it('takes the earliest due as the next probe when the probe is dead-lettered or cancelled, and keeps it', () => {
    const deadProbe = [...fiveFailed(), deadLettered('wh-1', 1, plus(106))];
    expect(next(deadProbe)).toBe('wh-2');
    expect(state(deadProbe).failing).toEqual({ consecutive: 5, since: plus(1), probe: 'wh-2' });
    expect(next([...fiveFailed(), cancelled('wh-1', 1, 'test', plus(106))])).toBe('wh-2');
    // The new probe fails and is due last now: still the probe.
    expect(next([...deadProbe, failed('wh-2', 2, 2, plus(102), plus(900))])).toBe('wh-2');
    // Another notification leaving changes nothing.
    expect(next([...fiveFailed(), cancelled('wh-4', 4, 'test', plus(106))])).toBe('wh-1');
  });

  it('names a probe again once something is pending after every one was dead-lettered', () => {
    const events = [...fiveFailed()];
    for (let n = 1; n <= 5; n++) events.push(deadLettered(`wh-${n}`, n, plus(200 + n)));
    expect(state(events).failing).toEqual({ consecutive: 5, since: plus(1) });
    const again = [...events, resent('wh-3', 3, plus(300)), resent('wh-1', 1, plus(301))];
    expect(state(again).failing).toEqual({ consecutive: 5, since: plus(1), probe: 'wh-3' });
    // The probe fails and is due after wh-1 now: still the probe, and wh-1 waits.
    expect(next([...again, failed('wh-3', 3, 1, plus(302), plus(900))])).toBe('wh-3');
    // A new notification after them all is not the probe either.
    expect(next([...again, created('wh-6', 6, plus(302))])).toBe('wh-3');
  });
});
