/** The parts of an OpenAPI 3.1 document that the e2e specs of /openapi.json read. */
export type Schema = Record<string, unknown>;
type Response = { headers?: Record<string, { schema: Schema }>; content?: Record<string, { schema: Schema }> };
type OperationDoc = { tags: string[]; responses: Record<string, Response> };
export type Document = {
  openapi: string;
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, Schema> };
};
