import { Codes, type Violation } from '@gw/contract';
import type { HostName } from './operation';

/**
 * The HTTP status of a failure envelope. The public hosts answer refusals with 200 (docs/api.md
 * section 2); the internal ingest host uses 4xx statuses (section 6), and 503 for an outage.
 */
export function failureStatus(host: HostName, violations: readonly Violation[], tooLarge = false): number {
  if (host !== 'internal') return 200;
  const codes = new Set(violations.map((v) => v.code));
  if (codes.has(Codes.IngestAuthFailed)) return 401;
  if (tooLarge) return 413;
  if (codes.has(Codes.TooManyRequests)) return 429;
  if (codes.has(Codes.Unavailable) || codes.has(Codes.ConcurrentChange)) return 503;
  if (codes.has(Codes.NoSuchInstance)) return 404;
  return 400;
}
