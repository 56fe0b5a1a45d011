import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ContractParams } from '../http/contract-params';
import { ChangeWebhookCommand, type ChangeWebhookResult } from './change-webhook/change-webhook.command';
import { GetWebhookStatusQuery, type WebhookStatusResult } from './get-webhook-status/get-webhook-status.query';
import { GetWebhookLogsQuery, type WebhookLogsResult } from './get-webhook-logs/get-webhook-logs.query';
import { WebhookDto, WebhookLogsDto, WebhookStatusDto } from './webhooks.dto';

/** `webhook`, `getWebhookStatus` and `getWebhookLogs` on the instance host (4.4, 4.5, 4.8); `GET /webhook` on the account
 * host is the same operation (4.6). A Nest route takes one method, hence a route per method. */
@Controller()
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(['instance/webhook', 'account/webhook'])
  webhookByGet(@ContractParams() p: WebhookDto) {
    return this.changeWebhook(p);
  }

  @Post('instance/webhook')
  @HttpCode(200)
  webhookByPost(@ContractParams() p: WebhookDto) {
    return this.changeWebhook(p);
  }

  @Get('instance/getWebhookStatus')
  statusByGet(@ContractParams() p: WebhookStatusDto) {
    return this.webhookStatus(p);
  }

  @Post('instance/getWebhookStatus')
  @HttpCode(200)
  statusByPost(@ContractParams() p: WebhookStatusDto) {
    return this.webhookStatus(p);
  }

  @Get('instance/getWebhookLogs')
  logsByGet(@ContractParams() p: WebhookLogsDto) {
    return this.webhookLogs(p);
  }

  @Post('instance/getWebhookLogs')
  @HttpCode(200)
  logsByPost(@ContractParams() p: WebhookLogsDto) {
    return this.webhookLogs(p);
  }

  private async webhookLogs(p: WebhookLogsDto) {
    const result = await this.queries.execute<GetWebhookLogsQuery, WebhookLogsResult>(
      new GetWebhookLogsQuery(p.instanceid, p.token, p.limit === undefined ? 20 : Number(p.limit)),
    );
    return { success: true, ...result };
  }

  private async changeWebhook(p: WebhookDto) {
    const result = await this.commands.execute<ChangeWebhookCommand, ChangeWebhookResult>(
      new ChangeWebhookCommand(p.instanceid, p.token, p.webhookUrl),
    );
    return { success: true, ...result };
  }

  private async webhookStatus(p: WebhookStatusDto) {
    const result = await this.queries.execute<GetWebhookStatusQuery, WebhookStatusResult>(
      new GetWebhookStatusQuery(p.instanceid, p.token),
    );
    return { success: true, ...result };
  }
}
