// Lint fixture (not built, not run): the notifier engine reading the machine's clock and randomness.

export const startedAt = new Date();
export const nowMs = Date.now();
export const jitter = Math.random();
export const parsed = new Date('2026-01-01T00:00:00.000Z');
