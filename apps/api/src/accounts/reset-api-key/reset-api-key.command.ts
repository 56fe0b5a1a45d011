import { Command } from '@nestjs/cqrs';
/** docs/api.md 8.3. */
export class ResetApiKeyCommand extends Command<ResetApiKeyResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
  ) {
    super();
  }
}

export interface ResetApiKeyResult {
  email: string;
  apikey: string;
}
