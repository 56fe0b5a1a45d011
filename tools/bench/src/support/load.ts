import autocannon from 'autocannon';

/** One closed-loop HTTP load run (autocannon: keep-alive connections, one request in flight each). */
export interface LoadOptions {
  /** Origin, e.g. http://127.0.0.1:8081 */
  origin: string;
  path: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request anew (its path, body); called for every request. */
  next?: () => { path?: string; body?: string };
  /** Every answer must have exactly this body (counted as a mismatch otherwise). */
  expectBody?: string;
  /** Called with every answer's body; return false to count it as a failure. */
  check?: (body: string) => boolean;
}

export interface LoadResult {
  /** Answers with a 2xx status that passed the checks, per second. */
  rps: number;
  ok: number;
  /** Non-2xx answers, socket errors, timeouts, and answers that failed the checks. */
  failures: number;
  p50: number;
  p99: number;
  seconds: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  let checkFailures = 0;
  const expected = options.expectBody;
  const check = options.check ?? (expected === undefined ? undefined : (body: string) => body === expected);
  const headers = {
    ...(options.body !== undefined || options.next ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  const request: autocannon.Request = {
    method: options.method,
    path: options.path,
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.next
      ? {
          setupRequest: (req: autocannon.Request) => {
            const next = options.next!();
            return { ...req, ...next, headers };
          },
        }
      : {}),
    ...(check
      ? {
          onResponse: (_status: number, body: string) => {
            if (!check(body)) checkFailures += 1;
          },
        }
      : {}),
  };
  const result = await autocannon({
    url: options.origin,
    connections: options.connections,
    duration: options.seconds,
    requests: [request],
  });
  const counts = result as unknown as Record<string, number>;
  const ok = Math.max(0, counts['2xx'] - checkFailures);
  return {
    rps: ok / result.duration,
    ok,
    failures: result.non2xx + result.errors + result.timeouts + checkFailures,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds: result.duration,
  };
}
