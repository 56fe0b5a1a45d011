import { Inject, Injectable, Optional } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { WebhooksConfig } from '@gw/config';
import { InjectConfig } from '@gw/nest-app';
import { NOT_A_PUBLIC_ADDRESS, nonPublicReason } from '@gw/net-policy';
import { CONTROL_CHARACTERS } from '../http/control-characters';

const SPACE_OR_CONTROL = new RegExp(`[\\s${CONTROL_CHARACTERS}]`);

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The one 0008 reason for a host that is or resolves to a non-public address. */
const NOT_PUBLIC = `webhookUrl is ${NOT_A_PUBLIC_ADDRESS}`;

/** Resolves a host name to its addresses within `timeoutMs`; DNS unless a test provides another. */
export type HostLookup = (host: string, timeoutMs: number) => Promise<string[]>;
const HOST_LOOKUP = Symbol('HOST_LOOKUP');

/** `localhost` and names under it are loopback by definition (RFC 6761), with or without the
 * trailing dot of a fully qualified name. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Resolves as the system resolver does (getaddrinfo: /etc/hosts, then DNS), which is also how the
 * notifier resolves the name when it connects. A getaddrinfo call cannot be cancelled; the caller
 * stops waiting after its time bound, and a slow name only ties up one of libuv's pool threads.
 */
const systemLookup: HostLookup = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

/**
 * Which webhook URLs may be registered: the form check (stage 1) and the check of where the host
 * points (stage 3). `ALLOW_HTTP_WEBHOOKS` and `ALLOW_PRIVATE_WEBHOOK_TARGETS` lift them for local use.
 */
@Injectable()
export class WebhookTargetPolicy {
  private readonly lookup: HostLookup;

  constructor(
    @InjectConfig('webhooks') private readonly config: WebhooksConfig,
    @Optional() @Inject(HOST_LOOKUP) lookup?: HostLookup,
  ) {
    this.lookup = lookup ?? systemLookup;
  }

  /** Why `url` is not an acceptable absolute URL, or null. An empty value is not judged here. */
  formProblem(url: string): string | null {
    if (url === '') return null;
    if (url.length > MAX_WEBHOOK_URL_LENGTH) return `webhookUrl must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
    // The URL is stored and used exactly as sent, so nothing the URL parser would silently strip.
    if (SPACE_OR_CONTROL.test(url)) return 'webhookUrl must not contain spaces or control characters';
    // URL parsers disagree about `\` (WHATWG reads it as `/` in https URLs, others as part of the
    // user info), so `https://8.8.8.8\@127.0.0.1/` could mean two different hosts.
    if (url.includes('\\')) return 'webhookUrl must not contain a backslash';
    // An absolute URL names its scheme and authority (`https://host`); `https:host` only parses
    // because WHATWG parsers are lenient, and receivers' parsers may read it otherwise.
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return 'webhookUrl must be an absolute https URL';
    // `https:///x` parses with `x` as its host (WHATWG skips the extra slashes), where a receiver's
    // parser sees no authority at all: the authority must follow the two slashes.
    if (/^[a-z][a-z0-9+.-]*:\/\/[/?#]/i.test(url)) return 'webhookUrl must name a host';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'webhookUrl must be an absolute https URL';
    }
    const schemes = this.config.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(parsed.protocol)) {
      return this.config.allowHttp ? 'webhookUrl must be an http or https URL' : 'webhookUrl must be an https URL';
    }
    if (parsed.hostname === '') return 'webhookUrl must name a host';
    return null;
  }

  /**
   * Why the URL's host is or resolves to a non-public address, or null. A name that does not resolve,
   * or not within the DNS time bound, is accepted: delivery checks the address again at connect time.
   * The reason names neither the address, nor its kind, nor the host: a caller learns that it was
   * refused and nothing about what the name resolves to (docs/api.md 4.4).
   */
  async resolutionProblem(url: string): Promise<string | null> {
    return (await this.isNonPublic(url)) ? NOT_PUBLIC : null;
  }

  private async isNonPublic(url: string): Promise<boolean> {
    if (url === '' || this.config.allowPrivateTargets) return false;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return nonPublicReason(host) !== null;
    if (isLocalhostName(host)) return true;
    // `name.` and `name` are one host to DNS, but /etc/hosts only knows `name`: ask for that one.
    const addresses = await this.lookupWithin(host.replace(/\.$/, ''), this.config.dnsTimeoutMs);
    return addresses.some((address) => nonPublicReason(address) !== null);
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
