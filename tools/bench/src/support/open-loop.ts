import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Offers `rate` calls a second for `seconds`, each started on schedule whether or not the ones
 * before it have answered (an open loop: a slow server does not slow the offered rate down).
 */
export async function openLoop(
  rate: number,
  seconds: number,
  send: (n: number) => Promise<void>,
): Promise<{ sent: number; failures: number; seconds: number }> {
  const total = Math.round(rate * seconds);
  const inFlight = new Set<Promise<void>>();
  let failures = 0;
  let n = 0;
  const started = performance.now();
  while (n < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (n < due) {
      const call: Promise<void> = send(n++).catch(() => {
        failures += 1;
      });
      inFlight.add(call);
      void call.finally(() => inFlight.delete(call));
    }
    await sleep(1);
  }
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(inFlight);
  return { sent: total, failures, seconds: elapsed };
}
