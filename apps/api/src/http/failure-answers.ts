import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConflictRetriesExhausted } from '@gw/application';
import { Codes, failureEnvelope, Refusal, type Violation } from '@gw/contract';
import { EventStoreUnavailableError } from '@gw/event-store';
import { sendJson } from '@gw/http-listener';
import type { Logger } from '@gw/logging';
import { ReadModelLagError } from '@gw/projections';
import { tagFailure } from '../metrics/request-metrics';
import { RateLimits } from '../rate-limits/rate-limits';
import { LOGGER } from '../shared/tokens';
import { failureStatus } from './failure-status';
import type { HostName } from './operation';

/**
 * The one place where errors become the contract's failure envelope. Refusals are answered with
 * their codes; an outage with 0011 and a lasting conflict with 0012. Anything else is a bug: it is
 * logged in full and answered with a bare envelope, never a stack trace.
 */
@Injectable()
export class FailureAnswers {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly limits: RateLimits,
  ) {}

  send(error: unknown, host: HostName, req: IncomingMessage, res: ServerResponse): void {
    // Stage 1 and 2 refusals (form, authentication) spend the source's budget on the public hosts;
    // the ingest host counts only wrong bearer tokens, which its listener handles.
    if (error instanceof Refusal && error.kind === 'request' && host !== 'internal')
      this.limits.failed('public', req.socket.remoteAddress ?? '');
    const { status, violations } = this.classify(error);
    tagFailure(res, violations);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const headers =
      error instanceof Refusal && error.retryAfterSeconds !== undefined
        ? { 'retry-after': String(error.retryAfterSeconds) }
        : undefined;
    sendJson(res, status === 200 ? failureStatus(host, violations) : status, failureEnvelope(violations), headers);
  }

  private classify(error: unknown): { status: number; violations: readonly Violation[] } {
    if (error instanceof Refusal) return { status: 200, violations: error.violations };
    if (error instanceof ConflictRetriesExhausted) {
      this.logger.warn('command gave up after concurrent changes', {
        stream: error.streamName,
        attempts: error.attempts,
      });
      return {
        status: 200,
        violations: [
          { code: Codes.ConcurrentChange, message: 'the instance kept changing concurrently; retry the request' },
        ],
      };
    }
    if (error instanceof EventStoreUnavailableError || error instanceof ReadModelLagError) {
      this.logger.warn('answered 0011', { error });
      return {
        status: 200,
        violations: [{ code: Codes.Unavailable, message: 'the service is temporarily unavailable; retry the request' }],
      };
    }
    this.logger.error('unexpected error while handling a request', { error });
    return {
      status: 500,
      violations: [{ code: Codes.Unavailable, message: 'internal error; retry the request' }],
    };
  }
}
