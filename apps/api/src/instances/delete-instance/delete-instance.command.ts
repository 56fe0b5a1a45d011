import { Command } from '@nestjs/cqrs';
/** docs/api.md 8.1. */
export class DeleteInstanceCommand extends Command<DeleteInstanceResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
  ) {
    super();
  }
}

export interface DeleteInstanceResult {
  instanceid: string;
  deletedAt: string;
}
