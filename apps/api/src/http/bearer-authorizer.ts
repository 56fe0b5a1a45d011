import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sha256 } from '@gw/application';

/** Admits requests carrying `Authorization: Bearer <token>`, compared in constant time. */
export function bearerAuthorizer(token: string): (req: IncomingMessage) => boolean {
  const expected = sha256(token);
  return (req) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return match !== null && timingSafeEqual(sha256(match[1]), expected);
  };
}
