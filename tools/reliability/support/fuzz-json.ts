import fc from 'fast-check';
import { SPECIAL } from './fuzz-vocabulary';

// Text and JSON for fuzzed values, written by hand so that a body can hold what JSON.stringify never
// makes (nesting deep enough to exhaust a recursive parser).

export const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 600 }) },
);

/** A nested array or object `depth` levels deep (up to ~60 KB of JSON, under the 64 KiB limit). */
export const deep = fc.tuple(fc.constantFrom(5, 100, 5_000, 29_000), fc.boolean()).map(([depth, array]) => ({
  __raw: array
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(Math.min(depth, 10_000))}1${'}'.repeat(Math.min(depth, 10_000))}`,
}));
type Raw = { __raw: string };

/** JSON text of `value`, with `{ __raw }` parts inserted as they are. */
export function jsonText(value: unknown): string {
  if (value && typeof value === 'object' && '__raw' in value) return (value as Raw).__raw;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
