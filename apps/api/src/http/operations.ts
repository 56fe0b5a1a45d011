import type { Type } from '@nestjs/common';
import type { RouteTable } from '@gw/http-listener';
import { DASHBOARD_ROUTES } from '../dashboard/dashboard-routes';
import { DOCS_ROUTES } from '../openapi/docs-routes';
import { AckDto, MessageDto } from '../ingest/ingest.dto';
import { RecordInboundCommand } from '../ingest/record-inbound.command';
import { RecordInboundHandler } from '../ingest/record-inbound.handler';
import { CreateInstanceCommand } from '../instances/create-instance/create-instance.command';
import { CreateInstanceHandler } from '../instances/create-instance/create-instance.handler';
import { ResetApiKeyDto } from '../accounts/accounts.dto';
import { ResetApiKeyCommand } from '../accounts/reset-api-key/reset-api-key.command';
import { ResetApiKeyHandler } from '../accounts/reset-api-key/reset-api-key.handler';
import { DeleteInstanceCommand } from '../instances/delete-instance/delete-instance.command';
import { DeleteInstanceHandler } from '../instances/delete-instance/delete-instance.handler';
import { DeleteInstanceDto, ListInstancesDto, NewInstanceDto, RenewInstanceDto, ResetInstanceTokenDto } from '../instances/instances.dto';
import { ResetInstanceTokenCommand } from '../instances/reset-instance-token/reset-instance-token.command';
import { ResetInstanceTokenHandler } from '../instances/reset-instance-token/reset-instance-token.handler';
import { ListInstancesHandler } from '../instances/list-instances/list-instances.handler';
import { ListInstancesQuery } from '../instances/list-instances/list-instances.query';
import { RenewInstanceCommand } from '../instances/renew-instance/renew-instance.command';
import { RenewInstanceHandler } from '../instances/renew-instance/renew-instance.handler';
import { ChangeWebhookCommand } from '../webhooks/change-webhook/change-webhook.command';
import { ChangeWebhookHandler } from '../webhooks/change-webhook/change-webhook.handler';
import { GetWebhookLogsHandler } from '../webhooks/get-webhook-logs/get-webhook-logs.handler';
import { GetWebhookLogsQuery } from '../webhooks/get-webhook-logs/get-webhook-logs.query';
import { GetWebhookStatusHandler } from '../webhooks/get-webhook-status/get-webhook-status.handler';
import { GetWebhookStatusQuery } from '../webhooks/get-webhook-status/get-webhook-status.query';
import { parseKindSet } from '../webhooks/notification-kinds-param';
import { GetNotificationsHandler } from '../notifications/get-notifications/get-notifications.handler';
import { GetNotificationsQuery } from '../notifications/get-notifications/get-notifications.query';
import { NotificationsDto, RedeliverDto } from '../notifications/notifications.dto';
import { RedeliverCommand } from '../notifications/redeliver/redeliver.command';
import { RedeliverHandler } from '../notifications/redeliver/redeliver.handler';
import { RotateSigningSecretCommand } from '../webhooks/rotate-signing-secret/rotate-signing-secret.command';
import { RotateSigningSecretHandler } from '../webhooks/rotate-signing-secret/rotate-signing-secret.handler';
import { TestWebhookCommand } from '../webhooks/test-webhook/test-webhook.command';
import { TestWebhookHandler } from '../webhooks/test-webhook/test-webhook.handler';
import { RotateSigningSecretDto, TestWebhookDto, WebhookDto, WebhookLogsDto, WebhookStatusDto } from '../webhooks/webhooks.dto';

/** The hosts of docs/api.md section 1. */
export type HostName = 'account' | 'instance' | 'internal';

/** A command or query handler of `@nestjs/cqrs`, resolved once from Nest's container. */
export interface MessageHandler<Message, Result> {
  execute(message: Message): Promise<Result>;
}

/**
 * One operation: where it is served, the DTO its parameters are checked against (stage 1), and the
 * command or query it becomes. Its success answer is `{"success": true, ...result}`.
 */
export interface Operation<Dto extends object = object, Message = unknown, Result = unknown> {
  host: HostName;
  /** A segment written `:name` is a path parameter (the ingest host's instance id). */
  path: string;
  methods: readonly string[];
  dto: new () => Dto;
  handler: Type<MessageHandler<Message, Result>>;
  message(dto: Dto, pathParams: Record<string, string>): Message;
  /** HTTP status of success: 200, or 202 on the ingest host (recorded, delivered later). */
  status: 200 | 202;
}

/** Keeps each entry's DTO, message and handler types in step. */
function operation<Dto extends object, Message, Result>(op: Operation<Dto, Message, Result>): Operation {
  return op as unknown as Operation;
}

const webhookChange = (host: HostName, methods: readonly string[]) =>
  operation({
    host,
    path: '/webhook',
    methods,
    dto: WebhookDto,
    handler: ChangeWebhookHandler,
    message: (p) => new ChangeWebhookCommand(p.instanceid, p.token, p.webhookUrl, typeof p.events === 'string' ? parseKindSet(p.events) : undefined),
    status: 200,
  });

/**
 * Every operation of the API, by host. Operations take no HEAD: several GET operations change
 * state (newInstance creates an instance whose token only the answer's body shows), so a HEAD must
 * not run them.
 */
export const OPERATIONS: readonly Operation[] = [
  operation({
    host: 'account',
    path: '/newInstance',
    methods: ['GET'],
    dto: NewInstanceDto,
    handler: CreateInstanceHandler,
    message: (p) => new CreateInstanceCommand(p.email, p.token, p.packageid),
    status: 200,
  }),
  operation({
    host: 'account',
    path: '/renewInstance',
    methods: ['GET'],
    dto: RenewInstanceDto,
    handler: RenewInstanceHandler,
    message: (p) => new RenewInstanceCommand(p.email, p.apikey, p.instanceid, p.packageid),
    status: 200,
  }),
  operation({
    host: 'account',
    path: '/listInstances',
    methods: ['GET'],
    dto: ListInstancesDto,
    handler: ListInstancesHandler,
    message: (p) => new ListInstancesQuery(p.email, p.apikey),
    status: 200,
  }),
  operation({
    host: 'account',
    path: '/deleteInstance',
    methods: ['GET'],
    dto: DeleteInstanceDto,
    handler: DeleteInstanceHandler,
    message: (p) => new DeleteInstanceCommand(p.email, p.apikey, p.instanceid),
    status: 200,
  }),
  operation({
    host: 'account',
    path: '/resetInstanceToken',
    methods: ['GET'],
    dto: ResetInstanceTokenDto,
    handler: ResetInstanceTokenHandler,
    message: (p) => new ResetInstanceTokenCommand(p.email, p.apikey, p.instanceid),
    status: 200,
  }),
  operation({
    host: 'account',
    path: '/resetApiKey',
    methods: ['GET'],
    dto: ResetApiKeyDto,
    handler: ResetApiKeyHandler,
    message: (p) => new ResetApiKeyCommand(p.email, p.apikey),
    status: 200,
  }),
  webhookChange('account', ['GET']),
  webhookChange('instance', ['GET', 'POST']),
  operation({
    host: 'instance',
    path: '/getWebhookStatus',
    methods: ['GET', 'POST'],
    dto: WebhookStatusDto,
    handler: GetWebhookStatusHandler,
    message: (p) => new GetWebhookStatusQuery(p.instanceid, p.token),
    status: 200,
  }),
  operation({
    host: 'instance',
    path: '/getWebhookLogs',
    methods: ['GET', 'POST'],
    dto: WebhookLogsDto,
    handler: GetWebhookLogsHandler,
    // A JSON null is an absent limit, as the form rules (IsOptional) treat it: the default, not 0.
    message: (p) => new GetWebhookLogsQuery(p.instanceid, p.token, p.limit === undefined || p.limit === null ? 20 : Number(p.limit)),
    status: 200,
  }),
  operation({
    host: 'instance',
    path: '/rotateSigningSecret',
    methods: ['GET', 'POST'],
    dto: RotateSigningSecretDto,
    handler: RotateSigningSecretHandler,
    message: (p) => new RotateSigningSecretCommand(p.instanceid, p.token),
    status: 200,
  }),
  operation({
    host: 'instance',
    path: '/testWebhook',
    methods: ['GET', 'POST'],
    dto: TestWebhookDto,
    handler: TestWebhookHandler,
    // Absent, a JSON null or empty: the registered URL (docs/api.md 8.6).
    message: (p) => new TestWebhookCommand(p.instanceid, p.token, p.webhookUrl ?? ''),
    status: 200,
  }),
  operation({
    host: 'instance',
    path: '/getNotifications',
    methods: ['GET', 'POST'],
    dto: NotificationsDto,
    handler: GetNotificationsHandler,
    // A JSON null is an absent parameter, as the form rules (IsOptional) treat it: the default.
    message: (p) => new GetNotificationsQuery(p.instanceid, p.token, p.after == null ? 0 : Number(p.after), p.limit == null ? 100 : Number(p.limit)),
    status: 200,
  }),
  operation({
    host: 'instance',
    path: '/redeliver',
    methods: ['GET', 'POST'],
    dto: RedeliverDto,
    handler: RedeliverHandler,
    message: (p) => new RedeliverCommand(p.instanceid, p.token, Number(p.from), p.to == null ? null : Number(p.to)),
    status: 200,
  }),
  operation({
    host: 'internal',
    path: '/instances/:instanceid/messages',
    methods: ['POST'],
    dto: MessageDto,
    handler: RecordInboundHandler,
    message: (m, path) =>
      new RecordInboundCommand(path['instanceid'], {
        message: {
          id: m.id,
          chatId: m.chatId,
          from: m.from ?? '',
          fromMe: m.fromMe ?? false,
          senderName: m.senderName ?? '',
          type: m.type ?? 'chat',
          body: m.body ?? '',
          time: m.time,
        },
      }),
    status: 202,
  }),
  operation({
    host: 'internal',
    path: '/instances/:instanceid/acks',
    methods: ['POST'],
    dto: AckDto,
    handler: RecordInboundHandler,
    message: (a, path) => new RecordInboundCommand(path['instanceid'], { ack: { id: a.id, chatId: a.chatId, status: a.status, time: a.time } }),
    status: 202,
  }),
];

/** Paths served outside the operation table: readiness on every host, metrics on the internal one,
 * the dashboard on the account host, the API description on both public hosts (docs/api.md section 10). */
const SERVICE_ROUTES: Record<HostName, RouteTable> = {
  account: { '/healthz': ['GET', 'HEAD'], ...DASHBOARD_ROUTES, ...DOCS_ROUTES },
  instance: { '/healthz': ['GET', 'HEAD'], ...DOCS_ROUTES },
  internal: { '/healthz': ['GET', 'HEAD'], '/metrics': ['GET'] },
};

/** Each host's routes, derived from the operation table. */
export const ROUTES: Record<HostName, RouteTable> = Object.fromEntries(
  (['account', 'instance', 'internal'] as const).map((host) => [
    host,
    {
      ...Object.fromEntries(OPERATIONS.filter((op) => op.host === host).map((op) => [op.path, op.methods])),
      ...SERVICE_ROUTES[host],
    },
  ]),
) as Record<HostName, RouteTable>;
