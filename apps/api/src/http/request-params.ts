import { TextDecoder } from 'node:util';
import type { IncomingMessage } from 'node:http';
import { Codes, type Violation } from '@gw/contract';

const MAX_BODY_BYTES = 64 * 1024;

/** A parameter source: each name with every value it was given (more than one means repeated). */
export type ParamSource = Map<string, unknown[]>;

/** What a request carries, by source, before any operation looks at it. */
export interface RequestParams {
  query: ParamSource;
  body: ParamSource;
}

/** A request whose body cannot be read (code 0009). */
export class UnreadableBody extends Error {
  readonly violation: Violation;
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'UnreadableBody';
    this.violation = { code: Codes.UnreadableBody, field: 'body', message };
  }
}

/** Parses a query string. A value whose percent-escapes are not UTF-8 decodes with U+FFFD in
 * place of the bad bytes, which the parameter rules then refuse (0002) rather than guess at. */
export function parseQuery(search: string): ParamSource {
  return fromPairs(new URLSearchParams(search));
}

function fromPairs(pairs: Iterable<[string, string]>): ParamSource {
  const source: ParamSource = new Map();
  for (const [name, value] of pairs) {
    const values = source.get(name);
    if (values) values.push(value);
    else source.set(name, [value]);
  }
  return source;
}

/**
 * Reads at most MAX_BODY_BYTES of the body; a longer one is refused without reading it whole. Plain
 * 'data'/'end' listeners rather than an async iterator: this runs for every request.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(new UnreadableBody(`the request body is over ${MAX_BODY_BYTES / 1024} KiB`, true));
  }
  if (declared === 0) {
    req.resume();
    return Promise.resolve(EMPTY);
  }
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.resume();
      reject(new UnreadableBody(`the request body is over ${MAX_BODY_BYTES / 1024} KiB`, true));
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    // A client that goes away mid-body ends the request without 'end'.
    req.once('close', () => {
      if (!req.complete) reject(Object.assign(new Error('the client went away'), { code: 'ECONNRESET' }));
    });
  });
}

const EMPTY = Buffer.alloc(0);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Labels read as UTF-8: its own, and ASCII's (which the WHATWG table reads as windows-1252, while
 * ASCII is UTF-8's first 128 characters). */
const UTF8_LABELS = new Set([
  'utf-8',
  'utf8',
  'unicode-1-1-utf-8',
  'us-ascii',
  'ascii',
  'iso646-us',
  'ansi_x3.4-1968',
  'us',
  'iso-ir-6',
  'cp367',
  'ibm367',
  'csascii',
]);

/** The decoder of a body's `charset` (UTF-8 when none is given); an unknown one is 0009. Other
 * charsets than UTF-8 are rare: a decoder is made for each such body, so that what clients send
 * leaves nothing behind. */
function decoderOf(charset: string | undefined): TextDecoder {
  if (charset === undefined) return UTF8;
  const label = charset.trim();
  if (UTF8_LABELS.has(label)) return UTF8;
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    throw new UnreadableBody('unknown charset');
  }
}

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/** Parses a body by its content type (JSON object or urlencoded form, or fewer where `accepted`
 * says so); empty is no body. */
export function parseBody(
  contentType: string | undefined,
  raw: Buffer,
  accepted: readonly string[] = BODY_TYPES,
): ParamSource {
  if (raw.length === 0) return new Map();
  const [mediaType, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  const decoder = decoderOf(charset);
  if (mediaType === 'application/json' && accepted.includes(mediaType))
    return parseJsonObject(decodeText(decoder, raw, 'the request body'));
  if (mediaType === 'application/x-www-form-urlencoded' && accepted.includes(mediaType)) {
    // A form is bytes: in an ASCII-compatible charset its escapes are bytes of that charset, which
    // only whole names and values decode (a Shift_JIS character may be an escape and a letter).
    // UTF-16 is read as UTF-8 there, as browsers (WHATWG's urlencoded parser) do.
    if (decoder === UTF8 || decoder.encoding.startsWith('utf-16'))
      return parseForm(decodeText(UTF8, raw, 'the request body'));
    return parseFormBytes(raw, (bytes) => decodeText(decoder, bytes, 'a form name or value'));
  }
  throw new UnreadableBody(
    mediaType ? `unsupported content type "${mediaType}"` : 'a request body needs a content type',
  );
}

function parseJsonObject(text: string): ParamSource {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UnreadableBody('the request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UnreadableBody('the JSON body must be an object of parameters');
  }
  const source: ParamSource = new Map(Object.entries(parsed).map(([name, value]) => [name, [value]]));
  // JSON.parse keeps the last of repeated keys; the contract refuses a repeated name instead.
  for (const name of repeatedTopLevelKeys(text)) source.get(name)?.push(undefined);
  return source;
}

/**
 * Names that occur more than once as keys of the top-level object of valid JSON `text`. A small
 * scanner: it tracks nesting depth and skips over strings, so only top-level keys count.
 */
export function repeatedTopLevelKeys(text: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  let depth = 0;
  // Character codes rather than one-character strings: this runs on every JSON request.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b)
      depth++; // { [
    else if (c === 0x7d || c === 0x5d)
      depth--; // } ]
    else if (c === 0x22) {
      let end = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(end); d !== 0x22 && end < text.length; d = text.charCodeAt(end)) {
        if (d === 0x5c) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      let next = end + 1;
      for (
        let d = text.charCodeAt(next);
        d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d;
        d = text.charCodeAt(next)
      )
        next++;
      if (depth === 1 && text.charCodeAt(next) === 0x3a) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (seen.has(key)) repeated.add(key);
        seen.add(key);
      }
      i = end;
    }
  }
  return [...repeated];
}

/** `bytes` as text in `decoder`'s charset; bytes not valid in it are 0009, naming `what`. */
function decodeText(decoder: TextDecoder, bytes: Buffer, what: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new UnreadableBody(`${what} is not valid ${decoder.encoding}`);
  }
}

function parseForm(text: string): ParamSource {
  const pairs: [string, string][] = [];
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    const rawValue = eq < 0 ? '' : piece.slice(eq + 1);
    try {
      pairs.push([decodeFormComponent(rawName), decodeFormComponent(rawValue)]);
    } catch {
      throw new UnreadableBody('the form body has a malformed percent-escape, or escaped bytes that are not utf-8');
    }
  }
  return fromPairs(pairs);
}

function decodeFormComponent(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

const AMPERSAND = 0x26;
const EQUALS = 0x3d;
const PLUS = 0x2b;
const PERCENT = 0x25;

/** A form body in an ASCII-compatible charset other than UTF-8, as WHATWG's urlencoded parser reads
 * one: split on `&` and the first `=`, `+` as a space, escapes as bytes, each name and value then
 * decoded whole. A `%` without two hex digits is 0009, as in a UTF-8 form. */
function parseFormBytes(raw: Buffer, decode: (bytes: Buffer) => string): ParamSource {
  const pairs: [string, string][] = [];
  let start = 0;
  while (start <= raw.length) {
    let end = raw.indexOf(AMPERSAND, start);
    if (end < 0) end = raw.length;
    if (end > start) {
      const piece = raw.subarray(start, end);
      const eq = piece.indexOf(EQUALS);
      const name = eq < 0 ? piece : piece.subarray(0, eq);
      const value = eq < 0 ? EMPTY : piece.subarray(eq + 1);
      pairs.push([decode(unescapeFormBytes(name)), decode(unescapeFormBytes(value))]);
    }
    start = end + 1;
  }
  return fromPairs(pairs);
}

function unescapeFormBytes(bytes: Buffer): Buffer {
  const out = Buffer.alloc(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === PLUS) out[n++] = 0x20;
    else if (b !== PERCENT) out[n++] = b;
    else {
      const hex = bytes.toString('latin1', i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new UnreadableBody('the form body has a malformed percent-escape');
      out[n++] = parseInt(hex, 16);
      i += 2;
    }
  }
  return out.subarray(0, n);
}

/**
 * The parameters an operation sees: from the body where it has the name, else from the query.
 * `repeated` lists names given more than once within the source that was used.
 */
export function mergeParams(
  params: RequestParams,
  names: readonly string[],
): { values: Record<string, unknown>; repeated: string[] } {
  const values: Record<string, unknown> = {};
  const repeated: string[] = [];
  for (const name of names) {
    const given = params.body.get(name) ?? params.query.get(name);
    if (!given) continue;
    if (given.length > 1) repeated.push(name);
    values[name] = given[0];
  }
  return { values, repeated };
}
