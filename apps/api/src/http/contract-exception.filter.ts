import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConflictRetriesExhausted } from '@gw/application';
import { Codes, failureEnvelope, type Violation } from '@gw/contract';
import { DomainRefusal } from '@gw/domain-core';
import { sendJson } from '@gw/http-listener';
import { EventStoreUnavailableError } from '@gw/event-store';
import type { Logger } from '@gw/logging';
import { ReadModelLagError } from '@gw/projections';
import { LOGGER } from '../shared/tokens';
import { RateLimited } from '../rate-limits/rate-limited';
import { RateLimits } from '../rate-limits/rate-limits';
import { RequestRefused } from './contract-error';
import { failureStatus, hostOfRoutedUrl } from './failure-status';

/**
 * The one place where errors become the contract's failure envelope. Refusals are answered with
 * HTTP 200 and their codes; an outage with 0011 and a lasting conflict with 0012. Anything else is
 * a bug: it is logged in full and answered with a bare envelope, never a stack trace.
 */
@Catch()
export class ContractExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly limits: RateLimits,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<ServerResponse>();
    const req = http.getRequest<IncomingMessage>();
    const onHost = hostOfRoutedUrl(req.url);
    // Stage 1 and 2 refusals (form, authentication) spend the source's budget on the public hosts;
    // the ingest host counts only wrong bearer tokens, which its listener handles.
    if (error instanceof RequestRefused && onHost !== 'internal') this.limits.failed(req.socket.remoteAddress ?? '');
    const { status, violations } = this.classify(error);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const headers = error instanceof RateLimited ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
    sendJson(res, status === 200 ? failureStatus(onHost, violations) : status, failureEnvelope(violations), headers);
  }

  private classify(error: unknown): { status: number; violations: readonly Violation[] } {
    if (error instanceof RequestRefused || error instanceof DomainRefusal || error instanceof RateLimited) {
      return { status: 200, violations: error.violations };
    }
    if (error instanceof ConflictRetriesExhausted) {
      this.logger.warn('command gave up after concurrent changes', { stream: error.streamName, attempts: error.attempts });
      return {
        status: 200,
        violations: [{ code: Codes.ConcurrentChange, message: 'the instance kept changing concurrently; retry the request' }],
      };
    }
    if (error instanceof EventStoreUnavailableError || error instanceof ReadModelLagError) {
      this.logger.warn('answered 0011', { error });
      return {
        status: 200,
        violations: [{ code: Codes.Unavailable, message: 'the service is temporarily unavailable; retry the request' }],
      };
    }
    if (error instanceof HttpException && error.getStatus() === 404) {
      return { status: 404, violations: [{ code: Codes.UnknownOperation, message: 'unknown operation' }] };
    }
    if (error instanceof HttpException && error.getStatus() < 500) {
      // The framework refused the request itself (say, a path it cannot decode): the request's fault.
      return { status: 200, violations: [{ code: Codes.MalformedParameter, message: 'the request is malformed' }] };
    }
    this.logger.error('unexpected error while handling a request', { error });
    return {
      status: 500,
      violations: [{ code: Codes.Unavailable, message: 'internal error; retry the request' }],
    };
  }
}
