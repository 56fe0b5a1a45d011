import { Query } from '@nestjs/cqrs';
import type { ConnectionState } from '@gw/domain-instances';

/** docs/api.md 13.2. */
export class GetInstanceStateQuery extends Query<InstanceStateResult> {
  constructor(
    readonly instanceId: string,
    readonly token: string,
  ) {
    super();
  }
}

export interface InstanceStateResult {
  state: ConnectionState | null;
  since: string | null;
}
