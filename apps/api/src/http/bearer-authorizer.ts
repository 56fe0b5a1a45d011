import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sha256 } from '@gw/application';

/** Admits requests carrying `Authorization: Bearer <token>`, compared in constant time. An empty
 * token is refused here rather than left to admit nothing by chance. */
export function bearerAuthorizer(token: string): (req: IncomingMessage) => boolean {
  if (token.trim() === '') throw new Error('the ingest host needs a bearer token (INTERNAL_TOKEN)');
  const expected = sha256(token);
  return (req) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return match !== null && timingSafeEqual(sha256(match[1]), expected);
  };
}
