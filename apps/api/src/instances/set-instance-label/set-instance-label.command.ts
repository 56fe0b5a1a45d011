import { Command } from '@nestjs/cqrs';

/** docs/api.md 13.1. */
export class SetInstanceLabelCommand extends Command<SetInstanceLabelResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
    readonly label: string,
  ) {
    super();
  }
}

export interface SetInstanceLabelResult {
  instanceid: string;
  label: string | null;
}
