/** Query parameters and object keys whose values are secrets and never reach a log in clear (the
 * values of a receiver's own headers are secrets too: docs/api.md section 12). */
const SECRET_KEY = /token|apikey|api_key|secret|password|authorization|signature|webhookheaders/i;
/** What a secret's value is logged as. */
export const REDACTED = '[REDACTED]';

/**
 * URLs given as values (`webhookUrl`, and any other parameter or field named `…url…`) are logged as
 * their scheme, host and port only: a receiver's path, query and user info can hold its secrets.
 */
const URL_KEY = /url/i;

/** `value` reduced to its scheme, host and port; REDACTED when it is no absolute URL with a host
 * ('' stays '': an empty webhookUrl switches delivery off, which a log may say). */
export function urlOrigin(value: string): string {
  if (value === '') return '';
  if (!URL.canParse(value)) return REDACTED;
  const { protocol, host } = new URL(value);
  return host === '' ? REDACTED : `${protocol}//${host}`;
}

/** E-mail addresses are personal data (docs/api.md 9): no log line carries one. Fields and query
 * parameters named so are redacted whatever they hold, and anything shaped like an address (`@` or
 * its percent-encoding `%40` between a local part and a dotted domain) wherever it stands. */
const EMAIL_KEY = /e-?mail/i;
const EMAIL_SHAPED = /[\w.!#$%'*+^`{|}~-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi;

/** `text` with every e-mail-shaped part replaced. (Most text has neither `@` nor `%40`: looking for
 * them first spares the pattern's scan of every position, a microsecond a request line.) */
export function redactEmails(text: string): string {
  if (!text.includes('@') && !text.includes('%40')) return text;
  return text.replace(EMAIL_SHAPED, REDACTED);
}

/**
 * The secret fields this service knows by name, as pino `redact` paths (censored with REDACTED).
 * They are the only redaction that reaches an object pino interpolates into a message
 * (`logger.info('%j', value)`, which nestjs-pino passes on), and they cover the cookie headers of
 * request logs, which the key pattern below does not. Everything else goes through redactFields:
 * paths are exact names at fixed depths, the rule is a pattern over key names at any depth.
 */
export const SECRET_PATHS: readonly string[] = [
  ...[
    'token',
    'apikey',
    'apiKey',
    'api_key',
    'secret',
    'signingSecret',
    'secretsKey',
    'internalToken',
    'authorization',
    'password',
    'signature',
    'webhookHeaders',
  ],
  'email',
  ...[
    'headers.authorization',
    'headers.cookie',
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
  ],
];

/** This service's secrets carry a recognisable prefix (API keys, instance tokens, signing secrets). */
const PREFIXED_SECRET = /\b(gwk|gwt|whsec)_[A-Za-z0-9_\-+/=%]+/g;

/** Replaces the values of secret and e-mail query parameters in a request path, reduces URL-valued
 * ones to scheme, host and port, and replaces anything shaped like one of this service's secrets or
 * an e-mail address anywhere in it (a client may put one in the path by mistake). */
export function redactUrl(url: string): string {
  return redactEmails(redactQuery(url.replace(PREFIXED_SECRET, REDACTED)));
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
      if (eq < 0) return pair;
      if (SECRET_KEY.test(name) || EMAIL_KEY.test(name)) return `${rawName}=${REDACTED}`;
      if (URL_KEY.test(name)) return `${rawName}=${urlOrigin(decodedValue(pair.slice(eq + 1)))}`;
      return pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

/** A query value as the server reads it ('+' is a space), or REDACTED when its escapes are malformed. */
function decodedValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return REDACTED;
  }
}

/**
 * A deep copy of `value` fit for a log record: the values under secret-looking keys (the pattern
 * above, at any depth, in arrays too) replaced, Errors as name, message, code and stack (logs are
 * for operators; responses never carry a stack), bigints as strings (JSON has none), objects with
 * a toJSON (a Date) as they say. pino's `redact` cannot do this: its paths name keys exactly, at a
 * fixed depth (its wildcards stand for one level), and its serializers see only top-level keys.
 */
export function redactFields(value: unknown, depth = 0): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return redactEmails(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return errorFields(value, depth);
  // Past this depth nothing is inspected, so nothing is written either.
  if (depth > 6) return '[TRUNCATED]';
  if (Array.isArray(value)) return value.map((v) => redactFields(v, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return redactFields((value as { toJSON(): unknown }).toJSON(), depth + 1);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (SECRET_KEY.test(key) || EMAIL_KEY.test(key)) out[key] = REDACTED;
    else if (URL_KEY.test(key) && typeof v === 'string') out[key] = redactEmails(urlOrigin(v));
    else out[key] = redactFields(v, depth + 1);
  }
  return out;
}

function errorFields(error: Error, depth: number): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: redactEmails(error.message),
    ...(code !== undefined ? { code: redactFields(code, depth + 1) } : {}),
    stack: error.stack === undefined ? undefined : redactEmails(error.stack),
  };
}
