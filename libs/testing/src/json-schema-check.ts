import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** A JSON Schema as a plain object. */
type Schema = Record<string, unknown>;

/** A schema as an answer or a body must meet it: besides what it declares, no field that it does not
 * name (each object with `properties` closed to others, unless it says otherwise). */
export function closedSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedSchema);
  if (!schema || typeof schema !== 'object') return schema;
  return {
    ...Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closedSchema(value)])),
    ...('properties' in schema && (schema as Schema)['type'] === 'object' && !('additionalProperties' in schema)
      ? { additionalProperties: false }
      : {}),
  };
}

/** An independent JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1), strict, with formats. */
export function jsonSchemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** What `value` does wrong against the closed `schema`, in the validator's own words; [] when nothing. */
export function schemaProblems(schema: unknown, value: unknown, ajv = jsonSchemaValidator()): unknown[] {
  const validate: ValidateFunction = ajv.compile(closedSchema(schema) as object);
  validate(value);
  return validate.errors ?? [];
}
