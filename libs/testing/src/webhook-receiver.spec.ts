import { epochMs } from './webhook-receiver';

describe('epochMs', () => {
  afterEach(() => jest.restoreAllMocks());

  it('reads the wall clock, with more than millisecond resolution', () => {
    const before = Date.now();
    const times = Array.from({ length: 50 }, () => epochMs());
    const after = Date.now();
    expect(times[0]).toBeGreaterThanOrEqual(before - 1);
    expect(times[49]).toBeLessThanOrEqual(after + 1);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
    expect(times.some((t) => !Number.isInteger(t))).toBe(true);
  });

  it('follows the wall clock when it is stepped, forward or back', () => {
    const real = Date.now.bind(Date);
    for (const step of [14_000, -14_000]) {
      jest.spyOn(Date, 'now').mockImplementation(() => real() + step);
      expect(Math.abs(epochMs() - Date.now())).toBeLessThanOrEqual(1);
      jest.restoreAllMocks();
    }
    expect(Math.abs(epochMs() - Date.now())).toBeLessThanOrEqual(1);
  });
});
