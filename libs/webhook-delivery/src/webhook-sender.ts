import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { nonPublicReason, NOT_A_PUBLIC_ADDRESS } from '@gw/net-policy';
import { Attempt, BODY_GRACE_MS, DeliveryTimeout, parseRetryAfter, SenderStopping } from './attempt';
import { AddressNotAllowed, guardedLookup } from './guarded-lookup';
import { signWebhook } from './signature';

export { parseRetryAfter };

export interface Delivery {
  url: string;
  webhookId: string;
  body: string;
  /** The secrets to sign with, the current one first; during a rotation's overlap also the one it
   * replaced (docs/api.md 8.5): one signature each, separated by a space. */
  signingSecrets: readonly string[];
  /** The receiver's own headers (docs/api.md section 12), sent first and exactly as given. */
  headers?: HeaderList;
}

/** Header names and values in the order given; names were checked not to clash with ours. */
export type HeaderList = ReadonlyArray<readonly [string, string]>;

/** What one attempt came to. `status` 0 means no answer came; `error` then says why. */
export interface AttemptResult {
  status: number;
  error: string;
  durationMs: number;
  retryAfterSeconds: number | null;
}

/** The attempt that could not be made because a signing secret would not open (SECRETS_KEY is not
 * the one it was sealed with): recorded as a failure, so that it shows in getWebhookLogs. */
export const UNREADABLE_SECRET_ATTEMPT: AttemptResult = {
  status: 0,
  error: 'signing secret unreadable: SECRETS_KEY differs from the one it was sealed with',
  durationMs: 0,
  retryAfterSeconds: null,
};

/** The attempt that could not be made because a sealed personal field of the body failed
 * authentication under its existing data key (the stored event was altered): recorded as a failure. */
export const UNREADABLE_PERSONAL_DATA_ATTEMPT: AttemptResult = {
  status: 0,
  error: 'personal data unreadable: a sealed field does not open under its data key',
  durationMs: 0,
  retryAfterSeconds: null,
};

const USER_AGENT = 'gateway-hub-notifier/0.1 (+https://www.standardwebhooks.com/)';

/** What the sender needs of the `webhooks` configuration section (a WebhooksConfig fits). */
export interface WebhookSenderOptions {
  /** ALLOW_PRIVATE_WEBHOOK_TARGETS: connect to non-public addresses too (local use and tests). */
  allowPrivateTargets: boolean;
  /** ALLOW_HTTP_WEBHOOKS: `http:` targets too. */
  allowHttp: boolean;
  /** DELIVERY_TIMEOUT_MS: the answer's headers must arrive within this time. */
  deliveryTimeoutMs: number;
}

/**
 * POSTs one notification: Standard Webhooks headers and signature, no redirects followed, a 2xx
 * whose headers arrive within DELIVERY_TIMEOUT_MS is success. Targets are checked at connect time
 * (guardedLookup), and only https is used unless ALLOW_HTTP_WEBHOOKS says otherwise. The client is
 * undici's, driven through its dispatch interface (no response stream, no abort signal): less CPU
 * per request than `node:http`'s, which the notifier spends a third of its time in at 2,000
 * messages/s (bench/README, issue 27). An idle connection is kept for what the receiver's
 * Keep-Alive allows less 2 s (at most 10 min), or 4 s when it says nothing. undici will not send an
 * `Expect` header; a receiver that registered one of its own (docs/api.md section 12 allows it) gets
 * its attempts through `node:http`, as given.
 */
export class WebhookSender {
  /** The HTTP client, loaded at the first attempt: an app that never sends (the API, until a
   * testWebhook) does not carry it in memory (about 20 MiB). */
  private agent?: Agent;
  private loading?: Promise<Agent>;
  private closed = false;
  /** For attempts with the receiver's own `Expect` header only; made at the first such attempt. */
  private nodeAgents?: { http: HttpAgent; https: HttpsAgent };
  /** The target check made at connect time, by either client. */
  private readonly lookup: ReturnType<typeof guardedLookup>;

  constructor(private readonly config: WebhookSenderOptions) {
    this.lookup = guardedLookup(config.allowPrivateTargets);
  }

  /** Loads the HTTP client now rather than at the first attempt (the notifier, before delivering). */
  async load(): Promise<void> {
    if (!this.agent) await this.loaded();
  }

  /** The client, loaded once; a load that failed (not for a close) is tried again by the next call. */
  private loaded(): Promise<Agent> {
    this.loading ??= this.loadAgent().catch((error: unknown) => {
      if (!(error instanceof SenderStopping)) this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async loadAgent(): Promise<Agent> {
    const { Agent } = await import('undici');
    if (this.closed) throw new SenderStopping();
    // The attempt's own timer ends it at deliveryTimeoutMs; undici's timeouts only clean up after it
    // (a connection still being made then is dropped by the connect timeout a second later).
    const backstopMs = this.config.deliveryTimeoutMs + 1000;
    this.agent ??= new Agent({
      connect: { lookup: this.lookup, timeout: backstopMs },
      headersTimeout: backstopMs,
      bodyTimeout: BODY_GRACE_MS,
    });
    return this.agent;
  }

  async send(delivery: Delivery): Promise<AttemptResult> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
    try {
      const response = await this.post(delivery);
      return {
        status: response.status,
        error: '',
        durationMs: elapsed(),
        retryAfterSeconds: response.retryAfterSeconds,
      };
    } catch (error) {
      return { status: 0, error: describeFailure(error), durationMs: elapsed(), retryAfterSeconds: null };
    }
  }

  /** Closes the kept-alive connections; the sender is not used afterwards. */
  close(): void {
    this.closed = true;
    void this.agent?.destroy().catch(() => undefined);
    this.nodeAgents?.http.destroy();
    this.nodeAgents?.https.destroy();
  }

  private async post({
    url,
    webhookId,
    body,
    signingSecrets,
    headers: own = [],
  }: Delivery): Promise<{ status: number; retryAfterSeconds: number | null }> {
    const target = new URL(url);
    const https = target.protocol === 'https:';
    if (!https && !(target.protocol === 'http:' && this.config.allowHttp)) {
      throw new AddressNotAllowed(`${target.protocol} is not https`);
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !this.config.allowPrivateTargets) {
      if (nonPublicReason(literal) !== null) throw new AddressNotAllowed(NOT_A_PUBLIC_ADDRESS);
    }
    const timestamp = Math.floor(Date.now() / 1000);
    // The receiver's own headers first, exactly as given, then ours (undici writes its host and
    // connection headers before them all and content-length after them all).
    const headers: string[] = [];
    let ownAuthorization = false;
    let ownExpect = false;
    for (const [name, value] of own) {
      headers.push(name, value);
      const lower = name.toLowerCase();
      if (lower === 'authorization') ownAuthorization = true;
      else if (lower === 'expect') ownExpect = true;
    }
    if ((target.username || target.password) && !ownAuthorization) headers.push('authorization', basicAuth(target));
    headers.push(
      'content-type',
      'application/json',
      'content-length',
      String(Buffer.byteLength(body)),
      'user-agent',
      USER_AGENT,
      'webhook-id',
      webhookId,
      'webhook-timestamp',
      String(timestamp),
      'webhook-signature',
      signingSecrets.map((secret) => signWebhook(secret, webhookId, timestamp, body)).join(' '),
    );
    if (ownExpect) return this.postThroughNodeHttp(target, headers, body);
    const request: Dispatcher.DispatchOptions = {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers,
      body,
    };
    const agent = this.agent ?? (await this.loaded());
    return new Promise((resolve, reject) =>
      agent.dispatch(request, new Attempt(this.config.deliveryTimeoutMs, resolve, reject)),
    );
  }

  /** The same attempt through `node:http` (headers as a raw list, so in the order given). */
  private postThroughNodeHttp(
    target: URL,
    headers: string[],
    body: string,
  ): Promise<{ status: number; retryAfterSeconds: number | null }> {
    if (this.closed) return Promise.reject(new SenderStopping());
    const https = target.protocol === 'https:';
    this.nodeAgents ??= { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
    const options = {
      method: 'POST',
      // A raw list is sent as it is: the host header is not added for it.
      headers: ['host', target.host, ...headers],
      lookup: this.lookup,
      agent: https ? this.nodeAgents.https : this.nodeAgents.http,
    };
    return new Promise((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(target, options, (res: IncomingMessage) => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, retryAfterSeconds: parseRetryAfter(res.headers['retry-after']) });
        const drain = setTimeout(() => res.destroy(), BODY_GRACE_MS);
        res.on('close', () => clearTimeout(drain));
        res.resume();
      });
      const timer = setTimeout(
        () => req.destroy(new DeliveryTimeout(this.config.deliveryTimeoutMs)),
        this.config.deliveryTimeoutMs,
      );
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.end(body);
    });
  }
}

/** `Basic` authorization from the URL's user info, percent-decoded as a browser would send it. */
function basicAuth(target: URL): string {
  const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** A short reason for getWebhookLogs: timeout, refused, reset, TLS, address not allowed, DNS. */
export function describeFailure(error: unknown): string {
  if (error instanceof DeliveryTimeout || error instanceof AddressNotAllowed || error instanceof SenderStopping)
    return error.message;
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = (error as Error)?.message ?? String(error);
  if (code === 'ECONNREFUSED') return 'refused: connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || /socket hang up/.test(message))
    return 'reset: connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'DNS: the host could not be resolved';
  if (code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return 'timeout: connection timed out';
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return 'timeout: no answer in time';
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return 'cancelled: the sender was stopping';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable: no route to host';
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|EPROTO|HOSTNAME_MISMATCH|ERR_CERT)/.test(code) ||
    /certificate|SSL|TLS/i.test(message)
  ) {
    return `TLS: ${code || message}`;
  }
  return `error: ${code || message}`;
}
