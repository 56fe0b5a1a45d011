/** A number written in decimal (`24`, `0.5`): no sign, no exponent. */
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** The environment as the process sees it. */
export type Env = Record<string, string | undefined>;

/**
 * Reads variables by kind, each with its default and bounds. A bad value is recorded as a problem,
 * naming the variable, and its default stands in, so that every problem is found in one pass.
 */
export class EnvReader {
  readonly problems: string[] = [];
  constructor(readonly env: Env) {}

  string(name: string, fallback: string): string {
    const value = this.env[name];
    if (value === undefined || value === '') return fallback;
    if (/[\x00-\x1f]/.test(value)) {
      this.problems.push(`${name}: must not contain control characters`);
      return fallback;
    }
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      this.problems.push(`${name}: must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** A number written in decimal (`24`, `0.5`), no sign or exponent, from `min` to `max`. */
  decimal(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!DECIMAL.test(raw.trim()) || value < min || value > max) {
      this.problems.push(`${name}: must be a number from ${min} to ${max}, decimals allowed (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** Comma-separated decimal numbers, each above 0 and at most `max`, each kept once. */
  decimalList(name: string, fallback: number[], max: number, unit: string): number[] {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const parts = raw.split(',').map((part) => part.trim());
    if (parts.some((part) => !DECIMAL.test(part) || Number(part) <= 0 || Number(part) > max)) {
      this.problems.push(
        `${name}: must be comma-separated ${unit}, each above 0 and at most ${max}, decimals allowed (got "${raw}")`,
      );
      return fallback;
    }
    return [...new Set(parts.map(Number))];
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name}: must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name}: must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}
