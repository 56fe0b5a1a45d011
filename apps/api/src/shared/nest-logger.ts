import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@gw/logging';

/** Routes Nest's own messages into the JSON log. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.debug(String(message), { context });
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error(String(message), { context, trace });
  }
  warn(message: unknown, context?: string) {
    this.logger.warn(String(message), { context });
  }
  debug(message: unknown, context?: string) {
    this.logger.debug(String(message), { context });
  }
  verbose(message: unknown, context?: string) {
    this.logger.debug(String(message), { context });
  }
}
