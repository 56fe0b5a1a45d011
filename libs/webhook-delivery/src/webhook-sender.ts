import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { nonPublicReason, NOT_A_PUBLIC_ADDRESS } from '@gw/net-policy';
import { AddressNotAllowed, guardedLookup } from './guarded-lookup';
import { signWebhook } from './signature';

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
/** After the headers, the body is read (and discarded) for at most this long. */
const BODY_GRACE_MS = 2000;

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
 * (guardedLookup), and only https is used unless ALLOW_HTTP_WEBHOOKS says otherwise.
 */
export class WebhookSender {
  private readonly lookup;
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
  private readonly httpAgent = new HttpAgent({ keepAlive: true });

  constructor(private readonly config: WebhookSenderOptions) {
    this.lookup = guardedLookup(config.allowPrivateTargets);
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
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }

  private post({
    url,
    webhookId,
    body,
    signingSecrets,
    headers: own = [],
  }: Delivery): Promise<{ status: number; retryAfterSeconds: number | null }> {
    const target = new URL(url);
    const https = target.protocol === 'https:';
    if (!https && !(target.protocol === 'http:' && this.config.allowHttp)) {
      return Promise.reject(new AddressNotAllowed(`${target.protocol} is not https`));
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !this.config.allowPrivateTargets) {
      if (nonPublicReason(literal) !== null) return Promise.reject(new AddressNotAllowed(NOT_A_PUBLIC_ADDRESS));
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      ...Object.fromEntries(own),
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'user-agent': USER_AGENT,
      'webhook-id': webhookId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signingSecrets.map((secret) => signWebhook(secret, webhookId, timestamp, body)).join(' '),
    };
    return new Promise((resolve, reject) => {
      const options = { method: 'POST', headers, lookup: this.lookup, agent: https ? this.httpsAgent : this.httpAgent };
      const req = (https ? httpsRequest : httpRequest)(target, options, (res: IncomingMessage) => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, retryAfterSeconds: parseRetryAfter(res.headers['retry-after']) });
        // The answer's body is not needed; read it briefly so the connection can be reused.
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

class DeliveryTimeout extends Error {
  constructor(ms: number) {
    super(`timeout: no answer within ${ms} ms`);
    this.name = 'DeliveryTimeout';
  }
}

/** `Retry-After` as seconds from now, from either of its forms; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.round((at - now) / 1000));
}

/** A short reason for getWebhookLogs: timeout, refused, reset, TLS, address not allowed, DNS. */
export function describeFailure(error: unknown): string {
  if (error instanceof DeliveryTimeout || error instanceof AddressNotAllowed) return error.message;
  const code = String((error as { code?: unknown })?.code ?? '');
  const message = (error as Error)?.message ?? String(error);
  if (code === 'ECONNREFUSED') return 'refused: connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/.test(message)) return 'reset: connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'DNS: the host could not be resolved';
  if (code === 'ETIMEDOUT' || code === 'ECONNABORTED') return 'timeout: connection timed out';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable: no route to host';
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|EPROTO|HOSTNAME_MISMATCH|ERR_CERT)/.test(code) ||
    /certificate|SSL|TLS/i.test(message)
  ) {
    return `TLS: ${code || message}`;
  }
  return `error: ${code || message}`;
}
