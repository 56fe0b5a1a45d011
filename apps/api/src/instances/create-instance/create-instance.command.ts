export class CreateInstanceCommand {
  constructor(
    readonly email: string,
    readonly apiKey: string,
    readonly packageId: string,
  ) {}
}

export interface CreateInstanceResult {
  instanceid: string;
  token: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
}
