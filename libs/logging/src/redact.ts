/** Query parameters and object keys whose values are secrets and never reach a log in clear. */
const SECRET_KEY = /token|apikey|api_key|secret|password|authorization|signature/i;
export const REDACTED = '[REDACTED]';

/** This service's secrets carry a recognisable prefix (API keys, instance tokens, signing secrets). */
const PREFIXED_SECRET = /\b(gwk|gwt|whsec)_[A-Za-z0-9_\-+/=%]+/g;

/** Replaces the values of secret query parameters in a request path, and anything shaped like one
 * of this service's secrets anywhere in it (a client may put one in the path by mistake). */
export function redactUrl(url: string): string {
  return redactQuery(url.replace(PREFIXED_SECRET, REDACTED));
}

function redactQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const redacted = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // An undecodable name is judged as it stands.
      }
      return SECRET_KEY.test(name) && eq >= 0 ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

/** A deep copy of `value` with the values under secret-looking keys replaced. */
export function redactFields(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Error) return value;
  // Past this depth nothing is inspected, so nothing is written either.
  if (depth > 6) return '[TRUNCATED]';
  if (Array.isArray(value)) return value.map((v) => redactFields(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : redactFields(v, depth + 1);
  }
  return out;
}
