import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Logger as NestPinoLogger, LoggerModule } from 'nestjs-pino';
import { pinoLoggerOf, type Logger } from '@gw/logging';

/**
 * nestjs-pino's Logger, through which Nest's own messages reach the app's pino instance (the one
 * behind the app's Logger). What Nest says through `log` (modules initialised) is debug, so that
 * the log at info holds the app's own lines; Nest's warnings and errors are written as such.
 */
@Injectable()
export class NestLogger extends NestPinoLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    this.debug(message, ...optionalParams);
  }
}

/** Nest's logging for an app: nestjs-pino on the app's own pino instance, and NestLogger for
 * `app.useLogger(app.get(NestLogger))`. No HTTP adapter runs, so pino-http's middleware never does. */
@Module({})
export class NestLoggingModule {
  static forLogger(logger: Logger): DynamicModule {
    return {
      module: NestLoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: pinoLoggerOf(logger) } })],
      providers: [NestLogger],
      exports: [NestLogger],
    };
  }
}
