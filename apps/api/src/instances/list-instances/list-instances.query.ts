export class ListInstancesQuery {
  constructor(
    readonly email: string,
    readonly apiKey: string,
  ) {}
}

export interface InstanceSummary {
  instanceid: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
  status: 'active' | 'expired';
  webhookUrl: string;
  webhookEnabled: boolean;
  signingSecret?: string;
}

export interface ListInstancesResult {
  instances: InstanceSummary[];
}
