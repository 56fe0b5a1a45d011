import { GONE_REASON, notificationsDecider } from './notifications.decider';
import {
  spec,
  state,
  t0,
  plus,
  DEFAULT_SCHEDULE,
  created,
  failed,
  delivered,
  deadLettered,
  cancelled,
  failedAttempts,
  deadLetteredHistory,
  record,
} from './__fixtures__/notifications.fixtures';

describe('recording a successful attempt', () => {
  it.each([200, 202, 204, 299])('records a %i answer on the first attempt as delivered, attempt 1', (status) => {
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', plus(1), status))
      .then([delivered('wh-1', 1, 1, plus(1), status)]);
  });

  it('records the attempt number of the attempt that succeeded after earlier failures', () => {
    const { events, nextAt } = failedAttempts('wh-1', 1, 2);
    spec
      .given([created('wh-1', 1), ...events])
      .when(record('wh-1', nextAt, 200))
      .then([delivered('wh-1', 1, 3, nextAt)]);
  });

  it('forgets a delivered notification', () => {
    expect(state([created('wh-1', 1), delivered('wh-1', 1, 1, plus(1))]).open['wh-1']).toBeUndefined();
  });
});

describe('recording a failed attempt', () => {
  it('schedules the retry after a 500 at the first delay of the schedule (5 s with jitter 1)', () => {
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, 500))
      .then([failed('wh-1', 1, 1, t0, '2026-01-01T00:00:05.000Z')]);
  });

  it('scales the scheduled delay by the jitter drawn by the caller (0.8 and 1.2)', () => {
    const { events: one, nextAt: second } = failedAttempts('wh-1', 1, 1);
    // attempt 2 failed: 300 s x 0.8 = 240 s
    spec
      .given([created('wh-1', 1), ...one])
      .when(record('wh-1', second, 500, { jitter: 0.8 }))
      .then([failed('wh-1', 1, 2, second, plus(240, second))]);
    expect(plus(240, second)).toBe('2026-01-01T00:04:05.000Z');

    const { events: two, nextAt: third } = failedAttempts('wh-1', 1, 2);
    // attempt 3 failed: 1800 s x 1.2 = 2160 s
    spec
      .given([created('wh-1', 1), ...two])
      .when(record('wh-1', third, 500, { jitter: 1.2 }))
      .then([failed('wh-1', 1, 3, third, plus(2160, third))]);
    expect(plus(2160, third)).toBe('2026-01-01T00:41:05.000Z');

    // attempt 1 failed: 5 s x 1.2 = 6 s; 5 s x 0.8 = 4 s
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, 500, { jitter: 1.2 }))
      .then([failed('wh-1', 1, 1, t0, '2026-01-01T00:00:06.000Z')]);
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, 500, { jitter: 0.8 }))
      .then([failed('wh-1', 1, 1, t0, '2026-01-01T00:00:04.000Z')]);
  });

  it.each(DEFAULT_SCHEDULE.map((delay, i) => [i + 1, delay] as const))(
    'after failed attempt %i the next attempt is due %i s later (jitter 1)',
    (attempt, delay) => {
      const { events, nextAt } = failedAttempts('wh-1', 1, attempt - 1);
      spec
        .given([created('wh-1', 1), ...events])
        .when(record('wh-1', nextAt, 500))
        .then([failed('wh-1', 1, attempt, nextAt, plus(delay, nextAt))]);
    },
  );

  it('keeps the failed notification pending, due at the recorded next attempt', () => {
    const history = [created('wh-1', 1), failed('wh-1', 1, 1, t0, plus(5))];
    expect(state(history).open['wh-1']).toEqual(
      expect.objectContaining({ status: 'pending', attempts: 1, nextAttemptAt: plus(5) }),
    );
  });

  it.each([301, 302, 304, 307, 308])(
    'counts a %i answer (redirects are not followed) as a failed attempt',
    (status) => {
      spec
        .given([created('wh-1', 1)])
        .when(record('wh-1', t0, status, { error: `HTTP ${status}` }))
        .then([failed('wh-1', 1, 1, t0, plus(5), status, `HTTP ${status}`)]);
    },
  );

  it.each([400, 404, 429, 503])('counts a %i answer as a failed attempt with a retry', (status) => {
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, status, { error: `HTTP ${status}` }))
      .then([failed('wh-1', 1, 1, t0, plus(5), status, `HTTP ${status}`)]);
  });

  it('records status 0 and the error text when no answer came', () => {
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, 0, { error: 'connect ECONNREFUSED 203.0.113.7:443' }))
      .then([failed('wh-1', 1, 1, t0, plus(5), 0, 'connect ECONNREFUSED 203.0.113.7:443')]);
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', t0, 0, { error: 'no response headers within 15 s' }))
      .then([failed('wh-1', 1, 1, t0, plus(5), 0, 'no response headers within 15 s')]);
  });
});

describe('Retry-After on a failed attempt', () => {
  // attempt 2 fails; its scheduled delay is 300 s
  const { events: one, nextAt: second } = failedAttempts('wh-1', 1, 1);
  const history = [created('wh-1', 1), ...one];
  const after = (retryAfterSeconds: number, jitter = 1) =>
    record('wh-1', second, 503, { retryAfterSeconds, jitter, error: 'HTTP 503' });
  const expectNext = (seconds: number) => [failed('wh-1', 1, 2, second, plus(seconds, second), 503, 'HTTP 503')];

  it('uses the scheduled delay when Retry-After asks for less', () => {
    spec.given(history).when(after(10)).then(expectNext(300));
    spec.given(history).when(after(0)).then(expectNext(300));
  });

  it('uses Retry-After itself between 1x and 2x of the scheduled delay, bounds included', () => {
    spec.given(history).when(after(450)).then(expectNext(450));
    spec.given(history).when(after(300)).then(expectNext(300));
    spec.given(history).when(after(600)).then(expectNext(600));
  });

  it('caps Retry-After at 2x of the scheduled delay', () => {
    spec.given(history).when(after(900)).then(expectNext(600));
    spec.given(history).when(after(86400)).then(expectNext(600));
  });

  it('measures the bounds against the jittered scheduled delay (300 s x 0.8 = 240 s)', () => {
    spec.given(history).when(after(100, 0.8)).then(expectNext(240));
    spec.given(history).when(after(250, 0.8)).then(expectNext(250));
    spec.given(history).when(after(1000, 0.8)).then(expectNext(480));
  });
});

describe('the last attempt', () => {
  it('dead-letters after the 8th failed attempt of the default schedule, with no next attempt', () => {
    const { events, nextAt } = failedAttempts('wh-1', 1, 7);
    expect(nextAt).toBe(plus(99305)); // 5 + 300 + 1800 + 7200 + 18000 + 36000 + 36000 s
    spec
      .given([created('wh-1', 1), ...events])
      .when(record('wh-1', nextAt, 500))
      .then([failed('wh-1', 1, 8, nextAt, null), deadLettered('wh-1', 1, nextAt)]);
  });

  it('ignores Retry-After on the last attempt', () => {
    const { events, nextAt } = failedAttempts('wh-1', 1, 7);
    spec
      .given([created('wh-1', 1), ...events])
      .when(record('wh-1', nextAt, 503, { retryAfterSeconds: 60, error: 'HTTP 503' }))
      .then([failed('wh-1', 1, 8, nextAt, null, 503, 'HTTP 503'), deadLettered('wh-1', 1, nextAt)]);
  });

  it('with the schedule 1,1,1 retries after attempt 3 and dead-letters after attempt 4', () => {
    const schedule = [1, 1, 1];
    const two = failedAttempts('wh-1', 1, 2, schedule);
    spec
      .given([created('wh-1', 1), ...two.events])
      .when(record('wh-1', two.nextAt, 500, { retryDelaysSeconds: schedule }))
      .then([failed('wh-1', 1, 3, two.nextAt, plus(1, two.nextAt))]);
    expect(two.nextAt).toBe('2026-01-01T00:00:02.000Z');

    const three = failedAttempts('wh-1', 1, 3, schedule);
    spec
      .given([created('wh-1', 1), ...three.events])
      .when(record('wh-1', three.nextAt, 500, { retryDelaysSeconds: schedule }))
      .then([failed('wh-1', 1, 4, three.nextAt, null), deadLettered('wh-1', 1, three.nextAt)]);
  });

  it('keeps a dead-lettered notification resendable with nothing scheduled', () => {
    expect(state(deadLetteredHistory('wh-1', 1)).open['wh-1']).toEqual(
      expect.objectContaining({ status: 'deadLettered', attempts: 8, nextAttemptAt: null }),
    );
  });
});

describe('410 Gone', () => {
  it('records the failed attempt with no next attempt and cancels the notification with GONE_REASON', () => {
    const at = plus(1);
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-1', at, 410, { error: 'HTTP 410' }))
      .then([failed('wh-1', 1, 1, at, null, 410, 'HTTP 410'), cancelled('wh-1', 1, GONE_REASON, at)]);
  });

  it('ignores Retry-After on a 410 and forgets the notification', () => {
    const { events, nextAt } = failedAttempts('wh-1', 1, 2);
    const outcome = notificationsDecider.decide(
      record('wh-1', nextAt, 410, { retryAfterSeconds: 60, error: 'HTTP 410' }),
      state([created('wh-1', 1), ...events]),
    );
    expect(outcome).toEqual([
      failed('wh-1', 1, 3, nextAt, null, 410, 'HTTP 410'),
      cancelled('wh-1', 1, GONE_REASON, nextAt),
    ]);
    expect(state([created('wh-1', 1), ...events, ...outcome]).open['wh-1']).toBeUndefined();
  });
});

describe('an outcome for a notification that is no longer pending', () => {
  it('records nothing for a delivered notification', () => {
    spec
      .given([created('wh-1', 1), delivered('wh-1', 1, 1, plus(1))])
      .when(record('wh-1', plus(2), 500))
      .then([]);
    spec
      .given([created('wh-1', 1), delivered('wh-1', 1, 1, plus(1))])
      .when(record('wh-1', plus(2), 200))
      .then([]);
  });

  it('records nothing for a cancelled notification', () => {
    spec
      .given([created('wh-1', 1), cancelled('wh-1', 1, 'delivery switched off', plus(1))])
      .when(record('wh-1', plus(2), 200))
      .then([]);
    spec
      .given([
        created('wh-1', 1),
        failed('wh-1', 1, 1, t0, null, 410, 'HTTP 410'),
        cancelled('wh-1', 1, GONE_REASON, t0),
      ])
      .when(record('wh-1', plus(5), 500))
      .then([]);
  });

  it('records nothing for a dead-lettered notification', () => {
    const history = deadLetteredHistory('wh-1', 1);
    spec
      .given(history)
      .when(record('wh-1', plus(200000), 500))
      .then([]);
    spec
      .given(history)
      .when(record('wh-1', plus(200000), 200))
      .then([]);
  });

  it('records nothing for an unknown notification id', () => {
    spec
      .given([])
      .when(record('wh-x', t0, 200))
      .then([]);
    spec
      .given([created('wh-1', 1)])
      .when(record('wh-x', t0, 500))
      .then([]);
  });
});

describe('a failed notification does not hold back later ones', () => {
  const t1 = plus(1);
  const history = [created('wh-1', 1, t0), created('wh-2', 2, t1), failed('wh-1', 1, 1, plus(2), plus(7))];

  it('leaves the next notification due at its own creation time', () => {
    const open = state(history).open;
    expect(open['wh-1']).toEqual(expect.objectContaining({ status: 'pending', attempts: 1, nextAttemptAt: plus(7) }));
    expect(open['wh-2']).toEqual(expect.objectContaining({ status: 'pending', attempts: 0, nextAttemptAt: t1 }));
  });

  it("records the next notification's outcome as its own first attempt", () => {
    spec
      .given(history)
      .when(record('wh-2', plus(3), 200))
      .then([delivered('wh-2', 2, 1, plus(3))]);
    spec
      .given(history)
      .when(record('wh-2', plus(3), 500))
      .then([failed('wh-2', 2, 1, plus(3), plus(8))]);
  });

  it('leaves later notifications pending when an earlier one is dead-lettered', () => {
    const { events, nextAt } = failedAttempts('wh-1', 1, 7);
    const outcome = notificationsDecider.decide(
      record('wh-1', nextAt, 500),
      state([created('wh-1', 1), created('wh-2', 2, t1), ...events]),
    );
    const open = state([created('wh-1', 1), created('wh-2', 2, t1), ...events, ...outcome]).open;
    expect(open['wh-1'].status).toBe('deadLettered');
    expect(open['wh-2']).toEqual(expect.objectContaining({ status: 'pending', attempts: 0, nextAttemptAt: t1 }));
  });
});
