import { request, type Answer } from '@gw/testing';
import { MIX, type Operation, type OperationStats, type Shown } from './model';

// How the soak's client sends a request and judges its answer, apart from which requests it sends
// (load.ts): every answer is timed and counted per operation, and a 5xx, a timeout or a refusal of
// a valid request is a problem of the run.

export const random = (below: number) => Math.floor(Math.random() * below);
export const pick = <T>(items: readonly T[]): T => items[random(items.length)];
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** How long any request may wait for its answer: a process that stops answering fails the run
 * instead of holding it. */
export const REQUEST_TIMEOUT_MS = 30_000;
type Call = { url: string; init?: RequestInit };
export const query = (base: string, path: string, params: Record<string, string>): Call => ({
  url: `${base}${path}?${new URLSearchParams(params)}`,
});
export const post = (
  base: string,
  path: string,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): Call => ({
  url: `${base}${path}`,
  init: { method: 'POST', headers: { 'content-type': type, ...headers }, body },
});
export const json = (base: string, path: string, body: unknown) =>
  post(base, path, 'application/json', JSON.stringify(body));
export const form = (base: string, path: string, body: Record<string, string>) =>
  post(base, path, 'application/x-www-form-urlencoded', String(new URLSearchParams(body)));

/** Sends requests, counts and times their answers, and keeps the problems they show. */
export class CheckedRequests {
  readonly stats = Object.fromEntries(
    Object.keys(MIX).map((op) => [
      op,
      { sent: 0, ok: 0, refused: 0, serverErrors: 0, noAnswer: 0, totalMs: 0, maxMs: 0 },
    ]),
  ) as Record<Operation, OperationStats>;
  readonly problems: string[] = [];
  problemCount = 0;

  problem(text: string): void {
    this.problemCount += 1;
    if (this.problems.length < 40) this.problems.push(text);
  }

  /** Sends one request; undefined (and a problem) on a 5xx or no answer. */
  protected async send(op: Operation, call: Call): Promise<Answer | undefined> {
    const stats = this.stats[op];
    stats.sent += 1;
    const sent = Date.now();
    try {
      const answer = await request(call.url, { ...call.init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const ms = Date.now() - sent;
      stats.totalMs += ms;
      stats.maxMs = Math.max(stats.maxMs, ms);
      if (answer.status < 500) return answer;
      stats.serverErrors += 1;
      this.problem(`${op}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    } catch (error) {
      stats.noAnswer += 1;
      this.problem(`${op}: no answer (${(error as Error).cause ?? error})`);
    }
    return undefined;
  }

  /** The success body, or undefined (and a problem) when a valid request was refused. */
  protected async succeed(op: Operation, call: Call): Promise<Shown | undefined> {
    const answer = await this.send(op, call);
    if (!answer) return undefined;
    if (answer.status === 200 && answer.json?.success === true) {
      this.stats[op].ok += 1;
      return answer.json as Shown;
    }
    this.stats[op].refused += 1;
    this.problem(`${op}: a valid request was refused: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    return undefined;
  }
}
