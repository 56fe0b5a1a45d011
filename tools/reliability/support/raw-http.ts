import { Agent, request as httpRequest } from 'node:http';
import type { Answer } from '@gw/testing';

export interface RawRequest {
  port: number;
  method: string;
  /** Sent as it stands: already percent-encoded where it needs to be. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * One HTTP request through node:http, which (unlike fetch) sends any method, a body on GET and
 * headers as given. Resolves with the answer, or with `error` when no answer came.
 */
export function send(req: RawRequest, timeoutMs = 20_000): Promise<Answer | { error: string }> {
  return new Promise((resolve) => {
    const body =
      req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body, 'utf8');
    const headers: Record<string, string | number> = { ...req.headers };
    // A chunked body goes without a length, so that the server finds its size only by reading it.
    if (body !== undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = body.length;
    let settled = false;
    const done = (value: Answer | { error: string }) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: req.port, method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => done({ error: `${(error as { code?: string }).code ?? ''} ${error.message}` }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          done({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            headers: answerHeaders,
            text,
            json,
          });
        });
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    outgoing.on('error', (error) => done({ error: `${(error as { code?: string }).code ?? ''} ${error.message}` }));
    outgoing.end(body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
