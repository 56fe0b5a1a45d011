import { Controller, Get } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ContractParams } from '../http/contract-params';
import { CreateInstanceCommand, type CreateInstanceResult } from './create-instance/create-instance.command';
import { ListInstancesQuery, type ListInstancesResult } from './list-instances/list-instances.query';
import { RenewInstanceCommand, type RenewInstanceResult } from './renew-instance/renew-instance.command';
import { ListInstancesDto, NewInstanceDto, RenewInstanceDto } from './instances.dto';

/** The account host's instance operations (CONTRACT 4.1 to 4.3); query-string parameters only. */
@Controller('account')
export class InstancesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('newInstance')
  async newInstance(@ContractParams() p: NewInstanceDto) {
    const result = await this.commands.execute<CreateInstanceCommand, CreateInstanceResult>(
      new CreateInstanceCommand(p.email, p.token, p.packageid),
    );
    return { success: true, ...result };
  }

  @Get('renewInstance')
  async renewInstance(@ContractParams() p: RenewInstanceDto) {
    const result = await this.commands.execute<RenewInstanceCommand, RenewInstanceResult>(
      new RenewInstanceCommand(p.email, p.apikey, p.instanceid, p.packageid),
    );
    return { success: true, ...result };
  }

  @Get('listInstances')
  async listInstances(@ContractParams() p: ListInstancesDto) {
    const result = await this.queries.execute<ListInstancesQuery, ListInstancesResult>(new ListInstancesQuery(p.email, p.apikey));
    return { success: true, ...result };
  }
}
