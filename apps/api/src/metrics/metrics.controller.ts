import { Controller, Get, Header } from '@nestjs/common';
import { ApiMetrics } from './api-metrics';

/** `GET /metrics` on the internal host, behind its bearer token like everything there. */
@Controller('internal')
export class MetricsController {
  constructor(private readonly metrics: ApiMetrics) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  text(): Promise<string> {
    return this.metrics.text();
  }
}
