import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  it('waits 100 ms, then twice as long after each failure, up to 5 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000,
    ]);
  });

  it('keeps to its cap after any number of failures', () => {
    expect(retryDelayMs(10_000)).toBe(5000);
    expect(retryDelayMs(3, 250)).toBe(250);
  });
});
