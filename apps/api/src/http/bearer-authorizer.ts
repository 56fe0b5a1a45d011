import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Admits requests carrying `Authorization: Bearer <token>`, compared in constant time. */
export function bearerAuthorizer(token: string): (req: IncomingMessage) => boolean {
  const expected = createHash('sha256').update(token).digest();
  return (req) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return match !== null && timingSafeEqual(createHash('sha256').update(match[1]).digest(), expected);
  };
}
