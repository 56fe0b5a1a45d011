import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Observable } from 'rxjs';
import { TooManyRequests } from '../http/contract-error';
import type { ContractRequest } from '../http/contract-params';
import { hostOfRoutedUrl } from '../http/failure-status';
import { RateLimits } from './rate-limits';

/** Applies the rate limits before any parameter check or store access. */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(private readonly limits: RateLimits) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<IncomingMessage & ContractRequest>();
    const wait = this.limits.admit(hostOfRoutedUrl(req.url), req.contractParams, req.socket.remoteAddress ?? '');
    if (wait > 0) throw new TooManyRequests(wait);
    return next.handle();
  }
}
