import { Command } from '@nestjs/cqrs';
export class CreateInstanceCommand extends Command<CreateInstanceResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly packageId: string,
    readonly label?: string,
  ) {
    super();
  }
}

export interface CreateInstanceResult {
  instanceid: string;
  token: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
}
