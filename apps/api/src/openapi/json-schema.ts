/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

declare const shape: unique symbol;

/**
 * A JSON Schema that describes values of the TypeScript type `T`. `T` exists only for the compiler:
 * a success shape written with these helpers stops compiling when the result type of its handler
 * gains, loses or retypes a field, so the description cannot drift from what the code returns.
 * (`T` is invariant: a shape must be exactly its type, neither wider nor narrower.)
 */
export type Schema<T> = { readonly json: JsonSchema; readonly [shape]?: (value: T) => T };

/** A schema whatever type it describes. */
export type AnySchema = { readonly json: JsonSchema; readonly optional?: boolean };

/** A field that may be left out of its object. */
export type Optional<T> = Schema<T> & { readonly optional: true };

type Fields<T> = {
  [K in keyof T]-?: undefined extends T[K]
    ? Optional<Exclude<T[K], undefined>>
    : Schema<T[K]> & { readonly optional?: false };
};

type ShapeOf<S> = S extends Schema<infer T> ? T : never;

const schema = <T>(json: JsonSchema): Schema<T> => ({ json });

export const text = (description?: string): Schema<string> =>
  schema({ type: 'string', ...(description ? { description } : {}) });

/** An ISO 8601 UTC time with milliseconds (docs/api.md section 4). */
export const timestamp = (description?: string): Schema<string> =>
  schema({ type: 'string', format: 'date-time', ...(description ? { description } : {}) });

export const integer = (description?: string): Schema<number> =>
  schema({ type: 'integer', ...(description ? { description } : {}) });

export const boolean = (description?: string): Schema<boolean> =>
  schema({ type: 'boolean', ...(description ? { description } : {}) });

export const constant = <const V extends string | boolean>(value: V): Schema<V> => schema({ const: value });

export const oneOfValues = <const V extends string>(values: readonly V[], description?: string): Schema<V> =>
  schema({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const nullable = <T>(inner: Schema<T>): Schema<T | null> => schema({ anyOf: [inner.json, { type: 'null' }] });

export const arrayOf = <T>(items: Schema<T>, description?: string): Schema<T[]> =>
  schema({ type: 'array', items: items.json, ...(description ? { description } : {}) });

/** An object whose keys are free and whose values are all of one schema. */
export const mapOf = <T>(values: Schema<T>, description?: string): Schema<Record<string, T>> =>
  schema({ type: 'object', additionalProperties: values.json, ...(description ? { description } : {}) });

export const oneOf = <S extends AnySchema[]>(...schemas: S): Schema<ShapeOf<S[number]>> =>
  schema({ oneOf: schemas.map((s) => s.json) });

export const optional = <T>(inner: Schema<T>): Optional<T> => ({ json: inner.json, optional: true });

/** An object with exactly the fields of `T`; the ones `T` marks optional are not required. */
export function object<T>(fields: Fields<T>, description?: string): Schema<T> {
  const entries = Object.entries(fields) as Array<[string, AnySchema]>;
  return schema({
    type: 'object',
    properties: Object.fromEntries(entries.map(([name, field]) => [name, field.json])),
    required: entries.filter(([, field]) => !field.optional).map(([name]) => name),
    ...(description ? { description } : {}),
  });
}
