/** docs/api.md 8.2. */
export class ResetInstanceTokenCommand {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
  ) {}
}

export interface ResetInstanceTokenResult {
  instanceid: string;
  token: string;
}
