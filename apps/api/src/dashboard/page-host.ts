import { isIP } from 'node:net';

/** A DNS name: labels of letters, digits and inner hyphens, 253 characters at most. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * The host name of a `Host` header (its port dropped), lowercased and in URL form (an IPv6
 * address in brackets), or undefined when it is not a well-formed name or address. The header is
 * the client's to choose, so only a value of this strict form is ever put into an answer's header.
 */
function pageHostName(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined) return undefined;
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(hostHeader);
  if (v6) return isIP(v6[1]) === 6 ? `[${v6[1].toLowerCase()}]` : undefined;
  const named = /^([^:[\]]+)(?::\d{1,5})?$/.exec(hostHeader);
  if (!named) return undefined;
  const name = named[1].toLowerCase();
  return isIP(name) === 4 || HOST_NAME.test(name) ? name : undefined;
}

/**
 * The CSP sources for the instance host as the dashboard finds it without PUBLIC_API_URL: the host
 * name the page was loaded from, on the instance port (apps/dashboard's instanceHostUrl). The page
 * keeps its own scheme, which this process cannot tell (a proxy may add TLS), so both are named,
 * each on that one host and port. Empty when the Host header is not a well-formed name: then the
 * page may reach its own origin only.
 */
export function instanceHostSources(hostHeader: string | undefined, apiPort: number): string[] {
  const host = pageHostName(hostHeader);
  return host === undefined ? [] : [`http://${host}:${apiPort}`, `https://${host}:${apiPort}`];
}
