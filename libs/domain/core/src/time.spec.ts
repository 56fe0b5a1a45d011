import { isBefore, isoAt } from './time';

describe('time', () => {
  it('compares two moments as their instants compare, whatever the text', () => {
    const moments = [
      '2026-11-28T05:43:38.123Z',
      '2026-11-28T05:43:38.124Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      // Not in toISOString's 24-character form: compared by instant, not as text.
      '+010000-01-01T00:00:00.000Z',
      '2026-11-28T05:43:38Z',
      '2026-11-28T06:43:38.500+01:00',
    ];
    for (const a of moments)
      for (const b of moments) expect([a, b, isBefore(a, b)]).toEqual([a, b, Date.parse(a) < Date.parse(b)]);
  });

  it('is not before a moment equal to it', () => {
    expect(isBefore('2026-11-28T05:43:38.123Z', '2026-11-28T05:43:38.123Z')).toBe(false);
    expect(isBefore('2026-11-28T05:43:38.123Z', '2026-11-28T05:43:38.123+00:00')).toBe(false);
  });

  it('writes a moment as toISOString does, however often the same or another moment is asked', () => {
    const moments = [0, 1_795_000_000_000, 1_795_000_000_000, 1_795_000_000_001, 0, 253_402_300_799_999];
    for (const ms of moments) expect(isoAt(ms)).toBe(new Date(ms).toISOString());
  });
});
