/**
 * The structure of stored event data, values left out: which keys, what kind of value under each,
 * how they nest. Two data of the same event version have the same structure; a changed structure
 * is a new version (event-fixtures.spec.ts compares the committed fixtures with typed samples).
 */
export type Shape =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | { readonly array: Shape | 'empty' }
  | { readonly object: { readonly [key: string]: Shape } };

/** The shape of JSON data. An array's shape is its first element's: stored arrays hold one kind. */
export function shapeOf(value: unknown): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return { array: value.length === 0 ? 'empty' : shapeOf(value[0]) };
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object': {
      const keys = Object.keys(value as object).sort();
      return { object: Object.fromEntries(keys.map((key) => [key, shapeOf((value as Record<string, unknown>)[key])])) };
    }
    default:
      throw new Error(`not JSON data: a ${typeof value}`);
  }
}

export interface ShapeComparison {
  /** Keys the expected shape has and the actual one lacks are allowed at these paths (optional
   * fields, absent from data written before they existed). */
  readonly optional?: readonly string[];
  /** What the expected shape is, in the lines returned. */
  readonly expectedName?: string;
}

/** Where `actual` differs from `expected`, one line per difference, by path (`data.message.body`). */
export function shapeDifferences(
  expected: Shape,
  actual: Shape,
  path = 'data',
  options: ShapeComparison = {},
): string[] {
  const name = options.expectedName ?? 'the current shape';
  const kinds = () => [`${path}: ${describe(actual)} where ${name} has ${describe(expected)}`];
  if (typeof expected === 'string' || typeof actual === 'string') return expected === actual ? [] : kinds();
  if ('array' in expected || 'array' in actual) {
    if (!('array' in expected) || !('array' in actual)) return kinds();
    // An empty array says nothing about its elements' shape.
    if (expected.array === 'empty' || actual.array === 'empty') return [];
    return shapeDifferences(expected.array, actual.array, `${path}[]`, options);
  }
  const differences: string[] = [];
  for (const key of Object.keys(expected.object)) {
    const at = `${path}.${key}`;
    const theirs = actual.object[key];
    if (theirs === undefined) {
      if (!options.optional?.includes(at))
        differences.push(`${at}: missing, where ${name} has ${describe(expected.object[key])}`);
      continue;
    }
    differences.push(...shapeDifferences(expected.object[key], theirs, at, options));
  }
  for (const key of Object.keys(actual.object)) {
    if (!(key in expected.object))
      differences.push(`${path}.${key}: ${describe(actual.object[key])}, a key ${name} does not have`);
  }
  return differences;
}

function describe(shape: Shape): string {
  if (typeof shape === 'string') return `a ${shape}`;
  return 'array' in shape ? 'an array' : 'an object';
}
