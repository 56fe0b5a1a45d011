import { dataKeyOfStream, dataKeyStreamName, utcDay } from './personal-data.events';

/** The day as Date gives it: what utcDay must always agree with. */
const dayByDate = (iso: string) => new Date(iso).toISOString().slice(0, 10).replace(/-/g, '');

describe('utcDay', () => {
  it('gives the UTC day of the times the gateway stamps', () => {
    expect(utcDay('2026-11-23T08:25:45.416Z')).toBe('20261123');
    expect(utcDay('2026-01-01T00:00:00Z')).toBe('20260101');
  });

  it('gives the day Date gives for other offsets and for the days and hours Date rolls over', () => {
    for (const iso of [
      '2026-11-23T23:30:00-02:00',
      '2026-11-24T01:00:00+05:00',
      '2026-02-29T00:00:00Z',
      '2026-02-31T12:00:00.000Z',
      '2026-04-31T10:00:00Z',
      '2026-11-23T24:00:00Z',
      '2026-12-31T23:59:59.999999Z',
      '2026-11-23',
    ]) {
      expect(utcDay(iso)).toBe(dayByDate(iso));
    }
  });

  it('agrees with Date every three hours or so through a leap year', () => {
    const start = Date.UTC(2028, 0, 1);
    for (let at = start; at < start + 366 * 86_400_000; at += 3 * 3_600_000 + 1_234) {
      const iso = new Date(at).toISOString();
      expect(utcDay(iso)).toBe(dayByDate(iso));
    }
  });

  it('refuses what is not a time', () => {
    for (const bad of ['', 'yesterday', '2026-13-01T00:00:00Z', '2026-11-23T23:59:60Z'])
      expect(() => utcDay(bad)).toThrow('not a time');
  });
});

describe('dataKeyOfStream', () => {
  it('reads the instance and day from a data-key stream name, the day after the last dash', () => {
    expect(dataKeyOfStream(dataKeyStreamName('592bab825a23df93', '20261129'))).toEqual({
      instanceId: '592bab825a23df93',
      day: '20261129',
    });
    expect(dataKeyOfStream(dataKeyStreamName('abc-1', '20261129'))).toEqual({ instanceId: 'abc-1', day: '20261129' });
  });

  it('refuses other names', () => {
    for (const name of [
      'datakey-',
      'datakey--20261129',
      'datakey-abc',
      'datakey-abc-2026112',
      'datakey-abc-2026112x',
      'erasure-abc',
      'instance-abc-20261129',
    ])
      expect(dataKeyOfStream(name)).toBeUndefined();
  });
});
