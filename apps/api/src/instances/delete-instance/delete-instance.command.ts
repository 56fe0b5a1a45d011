/** docs/api.md 8.1. */
export class DeleteInstanceCommand {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
  ) {}
}

export interface DeleteInstanceResult {
  instanceid: string;
  deletedAt: string;
}
