import type { Type } from '@nestjs/common';
import type { Command, Query } from '@nestjs/cqrs';
import type { ErrorCode } from '@gw/contract';
import type { AnySchema, Schema } from '../openapi/json-schema';

/** The hosts of docs/api.md section 1. */
export type HostName = 'account' | 'instance' | 'internal';

/** What a route's parameters become: a command for the CommandBus or a query for the QueryBus, each
 * typed with the result its handler answers. */
export type Message<Result = unknown> = Command<Result> | Query<Result>;

/**
 * Where an operation is served, the DTO its parameters are checked against (stage 1), and how the
 * checked parameters become its command or query. Its success answer is `{"success": true, ...result}`.
 */
export interface Route<M extends Message = Message> {
  /** The contract's name of what runs here: the `operation` label of the request metrics. */
  name: string;
  host: HostName;
  /** A segment written `:name` is a path parameter (the ingest host's instance id). */
  path: string;
  methods: readonly string[];
  dto: new () => object;
  build(dto: object, pathParams: Record<string, string>): M;
  /** HTTP status of success: 200, or 202 on the ingest host (recorded, delivered later). */
  status: 200 | 202;
}

/** What an operation answers on success, and the codes it can refuse with after its parameters'
 * form is checked: authentication (stage 2) and the rest (stage 3), docs/api.md section 2. */
export interface Answer {
  summary: string;
  fields: AnySchema;
  refusals: readonly ErrorCode[];
}

/** One use case as the API serves it: its routes, its handler and, on a public host, its description. */
export interface Operation {
  /** A provider of the Nest module; the bus finds it from the class of the message a route builds. */
  handler: Type<unknown>;
  routes: readonly Route[];
  /** Described in the public hosts' OpenAPI documents; the ingest host is not described. */
  answer?: Answer;
}

/** A route whose `build` is typed by its DTO. */
export function route<Dto extends object, M extends Message>(spec: {
  name: string;
  host: HostName;
  path: string;
  methods: readonly string[];
  dto: new () => Dto;
  build(dto: Dto, pathParams: Record<string, string>): M;
  status?: 202;
}): Route<M> {
  return { status: 200, ...spec };
}

/** An operation whose routes build the message its handler takes, and whose answer describes the
 * result that handler returns: a change to one that the others do not follow stops compiling. */
export function operation<M extends Message<Result>, Result>(spec: {
  handler: Type<{ execute(message: M): Promise<Result> }>;
  routes: ReadonlyArray<Route<M>>;
  answer?: Answer & { fields: Schema<NoInfer<Result>> };
}): Operation {
  return spec as Operation;
}
