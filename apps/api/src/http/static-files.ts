import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Files a public host serves outside the operation table (the dashboard, the API descriptions).
 * The transport answers them before the per-source wait: they never count against a source and are
 * never refused because of one (docs/api.md section 2).
 */
export interface StaticFiles {
  /** Whether `pattern`, a key of the host's route table, is one of these files' routes. */
  serves(pattern: string): boolean;
  /** Answers a GET or HEAD routed to `pattern`; `path` is the request's path, query removed. */
  serve(pattern: string, path: string, req: IncomingMessage, res: ServerResponse): void;
}

/** One `StaticFiles` made of several, each answering its own routes. */
export function allStaticFiles(...sets: StaticFiles[]): StaticFiles {
  return {
    serves: (pattern) => sets.some((set) => set.serves(pattern)),
    serve: (pattern, path, req, res) => sets.find((set) => set.serves(pattern))?.serve(pattern, path, req, res),
  };
}

/** Writes a whole file; Node leaves the body out of an answer to HEAD. */
export function sendFile(res: ServerResponse, type: string, body: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': type,
    'content-length': body.length,
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(body);
}
