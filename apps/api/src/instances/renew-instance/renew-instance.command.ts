import { Command } from '@nestjs/cqrs';
export class RenewInstanceCommand extends Command<RenewInstanceResult> {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
    readonly packageId: string,
  ) {
    super();
  }
}

export interface RenewInstanceResult {
  instanceid: string;
  packageid: string;
  expiresAt: string;
}
