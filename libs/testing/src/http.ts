import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

/** What a client sees of one answer. */
export interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  /** The parsed body; undefined when it is not JSON. */
  json: any;
}

export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    text,
    json,
  };
}

export const get = (base: string, path: string, params: Record<string, string> = {}) =>
  request(`${base}${path}?${new URLSearchParams(params)}`);

export const postJson = (base: string, path: string, body: unknown, query: Record<string, string> = {}) =>
  request(`${base}${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

export const postForm = (
  base: string,
  path: string,
  params: Record<string, string>,
  query: Record<string, string> = {},
) =>
  request(`${base}${path}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });

/** Asserts the contract's failure envelope with exactly these codes. */
export function expectFailure(answer: Answer, codes: string[], status = 200): void {
  expect({
    status: answer.status,
    contentType: answer.contentType,
    msg: answer.json?.msg,
    success: answer.json?.success,
  }).toEqual({
    status,
    contentType: 'application/json; charset=utf-8',
    msg: codes,
    success: false,
  });
  expect(Array.isArray(answer.json.details)).toBe(true);
}

/** Asserts a rate-limit refusal (0010) with a `Retry-After` in whole seconds. */
export function expectThrottled(answer: Answer, status = 200): void {
  expectFailure(answer, ['0010'], status);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/** Asserts a success envelope and returns its body. */
export function expectSuccess(answer: Answer): any {
  expect({ status: answer.status, contentType: answer.contentType, success: answer.json?.success }).toEqual({
    status: 200,
    contentType: 'application/json; charset=utf-8',
    success: true,
  });
  return answer.json;
}

/**
 * Sends `bytes` as they are to the port of `url` on loopback and returns all that comes back until
 * the server closes: for requests fetch() cannot make (no Host, an unknown method, pipelined ones).
 */
export function rawHttp(url: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.write(bytes);
  });
}

/**
 * The same requests sent from another loopback address (127.0.0.2, 127.0.0.3, ...), so that a
 * spec can play several clients whose source addresses differ, as rate limits see them.
 */
export function fromAddress(localAddress: string) {
  const send = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, localAddress }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) headers.set(name, String(value));
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, contentType: headers.get('content-type') ?? '', headers, text, json });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(init.body);
    });
  return {
    request: send,
    get: (base: string, path: string, params: Record<string, string> = {}) =>
      send(`${base}${path}?${new URLSearchParams(params)}`),
    postJson: (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      send(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
  };
}
