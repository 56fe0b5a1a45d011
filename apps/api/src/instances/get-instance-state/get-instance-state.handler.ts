import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { InstancesQuery } from '@gw/projections';
import { ReadModelsService } from '../../read-models/read-models.service';
import { InstanceAuthenticator } from '../../webhooks/instance-authenticator';
import { GetInstanceStateQuery, type InstanceStateResult } from './get-instance-state.query';

/** docs/api.md 13.2: the connection state last reported by the gateway, and since when. Works on an
 * expired instance too: its state is a fact, not an action. */
@QueryHandler(GetInstanceStateQuery)
export class GetInstanceStateHandler implements IQueryHandler<GetInstanceStateQuery, InstanceStateResult> {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly auth: InstanceAuthenticator,
  ) {}

  async execute({ instanceId, token }: GetInstanceStateQuery): Promise<InstanceStateResult> {
    const instances: InstancesQuery = await this.readModels.current();
    const row = instances.findInstance(instanceId);
    this.auth.authenticate(instanceId, token, row?.tokenHash);
    if (!row) throw new Error('unreachable: authentication passed without an instance');
    return { state: row.connectionState, since: row.connectionSince };
  }
}
