import { Inject, Injectable, Optional } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppConfig } from '@gw/config';
import { nonPublicReason } from '@gw/net-policy';
import { APP_CONFIG } from '../shared/tokens';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Resolves a host name to its addresses within `timeoutMs`; DNS unless a test provides another. */
export type HostLookup = (host: string, timeoutMs: number) => Promise<string[]>;
export const HOST_LOOKUP = Symbol('HOST_LOOKUP');

/**
 * Asks DNS directly (c-ares) rather than the system's getaddrinfo: a getaddrinfo call cannot be
 * cancelled and holds one of libuv's few pool threads until it gives up, so slow names could starve
 * the process. `localhost` names are loopback by definition (RFC 6761). Names known only to
 * /etc/hosts are not seen here; the notifier checks every address again when it connects.
 */
const dnsLookup: HostLookup = async (host, timeoutMs) => {
  if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1', '::1'];
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const timer = setTimeout(() => resolver.cancel(), timeoutMs);
  try {
    const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    return answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
  } finally {
    clearTimeout(timer);
  }
};

/**
 * Which webhook URLs may be registered: the form check (stage 1) and the check of where the host
 * points (stage 3). `ALLOW_HTTP_WEBHOOKS` and `ALLOW_PRIVATE_WEBHOOK_TARGETS` lift them for local use.
 */
@Injectable()
export class WebhookTargetPolicy {
  private readonly lookup: HostLookup;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(HOST_LOOKUP) lookup?: HostLookup,
  ) {
    this.lookup = lookup ?? dnsLookup;
  }

  /** Why `url` is not an acceptable absolute URL, or null. An empty value is not judged here. */
  formProblem(url: string): string | null {
    if (url === '') return null;
    if (url.length > MAX_WEBHOOK_URL_LENGTH) return `webhookUrl must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
    // The URL is stored and used exactly as sent, so nothing the URL parser would silently strip.
    if (/[\s\u0000-\u001f\u007f]/.test(url)) return 'webhookUrl must not contain spaces or control characters';
    // An absolute URL names its scheme and authority (`https://host`); `https:host` only parses
    // because WHATWG parsers are lenient, and receivers' parsers may read it otherwise.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return 'webhookUrl must be an absolute https URL';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'webhookUrl must be an absolute https URL';
    }
    const schemes = this.config.allowHttpWebhooks ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) {
      return this.config.allowHttpWebhooks ? 'webhookUrl must be an http or https URL' : 'webhookUrl must be an https URL';
    }
    if (parsed.hostname === '') return 'webhookUrl must name a host';
    return null;
  }

  /**
   * Why the URL's host is or resolves to a non-public address, or null. A name that does not resolve,
   * or not within the DNS time bound, is accepted: delivery checks the address again at connect time.
   */
  async resolutionProblem(url: string): Promise<string | null> {
    if (url === '' || this.config.allowPrivateWebhookTargets) return null;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) {
      const why = nonPublicReason(host);
      return why && `webhookUrl host ${host} is a ${why} address`;
    }
    const addresses = await this.lookupWithin(host, this.config.dnsTimeoutMs);
    for (const address of addresses) {
      const why = nonPublicReason(address);
      if (why) return `webhookUrl host ${host} resolves to a ${why} address`;
    }
    return null;
  }

  private async lookupWithin(host: string, timeoutMs: number): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve([]), timeoutMs);
    });
    const resolved = this.lookup(host, timeoutMs).catch(() => [] as string[]);
    try {
      return await Promise.race([resolved, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
