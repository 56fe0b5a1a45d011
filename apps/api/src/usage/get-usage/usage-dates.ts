import { ValidateBy, type ValidationArguments } from 'class-validator';
import { Codes } from '@gw/contract';

/** The widest range getUsage answers for, in days (docs/api.md 13.3), and the default one. */
export const MAX_USAGE_DAYS = 92;
export const DEFAULT_USAGE_DAYS = 30;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether `value` is a real UTC calendar day written `YYYY-MM-DD`. */
function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** `day` moved by whole days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** An optional UTC day `YYYY-MM-DD` (0002 otherwise). */
export function OptionalDay(): PropertyDecorator {
  return ValidateBy(
    { name: 'isDay', validator: { validate: (value: unknown) => value === undefined || isDay(value) } },
    { context: { code: Codes.MalformedParameter }, message: '$property must be a UTC day written YYYY-MM-DD' },
  );
}

/** `to` given with `from`: not before it, and at most MAX_USAGE_DAYS days from it (0002). */
export function DayRange(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDayRange',
      validator: {
        validate: (to: unknown, args?: ValidationArguments) => {
          const from = (args?.object as { from?: unknown } | undefined)?.from;
          if (!isDay(to) || !isDay(from)) return true;
          const days = daysBetween(from, to);
          return days >= 1 && days <= MAX_USAGE_DAYS;
        },
      },
    },
    {
      context: { code: Codes.MalformedParameter },
      message: `$property must not be before from, and the range at most ${MAX_USAGE_DAYS} days`,
    },
  );
}
