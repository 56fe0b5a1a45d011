export class RenewInstanceCommand {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly instanceId: string,
    readonly packageId: string,
  ) {}
}

export interface RenewInstanceResult {
  instanceid: string;
  packageid: string;
  expiresAt: string;
}
