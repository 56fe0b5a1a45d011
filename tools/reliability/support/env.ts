import { RATE_LIMIT_VARIABLES } from '@gw/config';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something truthy; fails naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** The API's rate-limit variables with their defaults and maxima, so that these tests follow
 * whatever limits the API has. */
function rateLimitVariables(): Array<{ name: string; fallback: string; max: string }> {
  return Object.values(RATE_LIMIT_VARIABLES).map((v) => ({
    name: v.name,
    fallback: String(v.fallback),
    max: String(v.max),
  }));
}

/** Environment that lifts the API's rate limits as far as its configuration allows, for the tests
 * that drive it hard from one address. */
export function generousRateLimits(): Record<string, string> {
  return Object.fromEntries(rateLimitVariables().map((v) => [v.name, v.max]));
}

/** Environment with the API's rate limits at their production defaults (the test harness turns
 * them off unless told otherwise). */
export function defaultRateLimits(): Record<string, string> {
  return Object.fromEntries(rateLimitVariables().map((v) => [v.name, v.fallback]));
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    /** Picks a key by weight. */
    weighted: <K extends string>(weights: Record<K, number>): K => {
      const entries = Object.entries(weights) as Array<[K, number]>;
      let roll = next() * entries.reduce((sum, [, w]) => sum + w, 0);
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key;
      }
      return entries[entries.length - 1][0];
    },
  };
}

/** The seed a reliability spec runs with: RELIABILITY_SEED if set, else `fallback`; logged. */
export function seedFor(spec: string, fallback: number): number {
  const raw = process.env['RELIABILITY_SEED'];
  const seed = raw && /^\d+$/.test(raw) ? Number(raw) : fallback;
  process.stdout.write(`[${spec}] seed ${seed} (set RELIABILITY_SEED to change)\n`);
  return seed;
}
