import { Command } from '@nestjs/cqrs';
/** docs/api.md 8.2. */
export class ResetInstanceTokenCommand extends Command<ResetInstanceTokenResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
  ) {
    super();
  }
}

export interface ResetInstanceTokenResult {
  instanceid: string;
  token: string;
}
