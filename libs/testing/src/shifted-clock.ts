import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Environment that runs a process with its wall clock `offsetMs` ahead, the way it would run after
 * that much time has passed: a preload replaces `Date` (no argument and `Date.now()`) before any
 * application code loads. The application itself is unchanged; its timers and SQLite are unaffected.
 * libfaketime would do the same from outside the process, but it is not available here.
 */
export function shiftedClock(offsetMs: number): { env: Record<string, string>; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-clock-'));
  const preload = join(dir, 'shift-clock.js');
  writeFileSync(
    preload,
    `'use strict';
const offset = Number(process.env.GW_TEST_CLOCK_OFFSET_MS);
const RealDate = Date;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = ShiftedDate;
`,
  );
  return {
    env: { NODE_OPTIONS: `--require ${preload}`, GW_TEST_CLOCK_OFFSET_MS: String(offsetMs) },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
