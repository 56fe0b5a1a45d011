/** docs/api.md 8.3. */
export class ResetApiKeyCommand {
  constructor(
    readonly email: string,
    readonly apiKey: string,
  ) {}
}

export interface ResetApiKeyResult {
  email: string;
  apikey: string;
}
