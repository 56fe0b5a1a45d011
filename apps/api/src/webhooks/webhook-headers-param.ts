/** The most headers a receiver may set, and the longest name and value (docs/api.md section 12). */
const MAX_HEADERS = 10;
const MAX_NAME_LENGTH = 64;
const MAX_VALUE_LENGTH = 1024;
/** The longest `webhookHeaders` text: ten of the longest headers, JSON-escaped, with room to spare. */
export const MAX_HEADERS_TEXT_LENGTH = 16_384;

/** RFC 9110 `token` characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII and spaces: no line feed, tab, DEL or anything beyond ASCII. */
const VALUE = /^[\x20-\x7e]*$/;
/** Names the service sets itself or that would change how the request is framed or routed. */
const FORBIDDEN = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'user-agent',
  'te',
  'upgrade',
  'trailer',
  'keep-alive',
]);
const FORBIDDEN_PREFIXES = ['proxy-', 'webhook-'];

/** One member of the object as written: its name, and its value when that is a string. */
interface Member {
  name: string;
  value: string | undefined;
}

export interface ParsedHeaders {
  pairs: Array<[string, string]>;
  /** What is wrong, for people; never quotes a value (values are secrets). Empty when all is well. */
  problems: string[];
}

/**
 * Reads a `webhookHeaders` text (docs/api.md section 12): a JSON object of header names and string
 * values. The members are read from the text itself, because JSON.parse keeps only the last of a
 * repeated name and the contract refuses the repetition.
 */
export function parseHeaders(text: string): ParsedHeaders {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { pairs: [], problems: ['must be a JSON object of header names and values'] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { pairs: [], problems: ['must be a JSON object of header names and values'] };
  const members = membersOf(text);
  const problems: string[] = [];
  if (members.length > MAX_HEADERS) problems.push(`may set at most ${MAX_HEADERS} headers`);
  const seen = new Set<string>();
  const pairs: Array<[string, string]> = [];
  members.forEach(({ name, value }, index) => {
    const nameOk = name.length > 0 && name.length <= MAX_NAME_LENGTH && TOKEN.test(name);
    // Only a well-formed name is quoted back; nothing of a value ever is.
    const which = nameOk ? `"${name}"` : `number ${index + 1}`;
    if (!nameOk)
      problems.push(`header ${which}: a name is 1 to ${MAX_NAME_LENGTH} token characters (no space or colon)`);
    const lower = name.toLowerCase();
    if (nameOk && (FORBIDDEN.has(lower) || FORBIDDEN_PREFIXES.some((p) => lower.startsWith(p))))
      problems.push(`header ${which}: this name is set by the service and cannot be given`);
    if (seen.has(lower)) problems.push(`header ${which}: the name is given more than once`);
    seen.add(lower);
    if (value === undefined) problems.push(`header ${which}: the value must be a string`);
    else if (value.length > MAX_VALUE_LENGTH)
      problems.push(`header ${which}: the value must be at most ${MAX_VALUE_LENGTH} characters`);
    else if (!VALUE.test(value))
      problems.push(`header ${which}: the value must be visible ASCII characters and spaces only`);
    if (value !== undefined) pairs.push([name, value]);
  });
  return { pairs, problems };
}

/** The top-level members of a JSON object text, in order, repeats included; `text` must be valid JSON. */
function membersOf(text: string): Member[] {
  const members: Member[] = [];
  let i = skipSpace(text, text.indexOf('{') + 1);
  while (text[i] !== '}') {
    const nameEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, nameEnd)) as string;
    i = skipSpace(text, skipSpace(text, nameEnd) + 1); // past the colon
    let value: string | undefined;
    if (text[i] === '"') {
      const end = stringEnd(text, i);
      value = JSON.parse(text.slice(i, end)) as string;
      i = end;
    } else {
      i = valueEnd(text, i);
    }
    members.push({ name, value });
    i = skipSpace(text, i);
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return members;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  return i;
}

/** Just past the string that starts at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

/** Just past the value (not a string) that starts at `i`: a number, literal, object or array. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < text.length) {
    const c = text[j];
    if (c === '"') {
      j = stringEnd(text, j);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return j;
      depth--;
    } else if (c === ',' && depth === 0) return j;
    j++;
  }
  return j;
}
