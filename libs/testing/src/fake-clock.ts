/** A clock that stands still until a test moves it: for components that take their time from an
 * injected clock (`now()` in milliseconds since the epoch). */
export class FakeClock {
  private ms: number;

  constructor(start: string | number = '2026-03-04T10:00:00.000Z') {
    this.ms = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.ms;
  }

  /** The time as the log writes it. */
  iso(): string {
    return new Date(this.ms).toISOString();
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
