import type { Type } from '@nestjs/common';
import { Codes, type ErrorCode } from '@gw/contract';
import { ACK_STATUSES } from '@gw/domain-inbox';
import { NOTIFICATION_KINDS } from '@gw/domain-instances';
import type { InstanceNotice, NotificationOutcome } from '@gw/domain-notifications';
import type { DeliveryAttemptRow } from '@gw/projections';
import { ResetApiKeyHandler } from '../accounts/reset-api-key/reset-api-key.handler';
import type { MessageHandler } from '../http/operations';
import { CreateInstanceHandler } from '../instances/create-instance/create-instance.handler';
import { DeleteInstanceHandler } from '../instances/delete-instance/delete-instance.handler';
import { ListInstancesHandler } from '../instances/list-instances/list-instances.handler';
import { RenewInstanceHandler } from '../instances/renew-instance/renew-instance.handler';
import { ResetInstanceTokenHandler } from '../instances/reset-instance-token/reset-instance-token.handler';
import { GetNotificationsHandler } from '../notifications/get-notifications/get-notifications.handler';
import type { NotificationsResult } from '../notifications/get-notifications/get-notifications.query';
import { RedeliverHandler } from '../notifications/redeliver/redeliver.handler';
import { ChangeWebhookHandler } from '../webhooks/change-webhook/change-webhook.handler';
import { GetWebhookLogsHandler } from '../webhooks/get-webhook-logs/get-webhook-logs.handler';
import { GetWebhookStatusHandler } from '../webhooks/get-webhook-status/get-webhook-status.handler';
import { RotateSigningSecretHandler } from '../webhooks/rotate-signing-secret/rotate-signing-secret.handler';
import { TestWebhookHandler } from '../webhooks/test-webhook/test-webhook.handler';
import type { ResetApiKeyResult } from '../accounts/reset-api-key/reset-api-key.command';
import type { CreateInstanceResult } from '../instances/create-instance/create-instance.command';
import type { DeleteInstanceResult } from '../instances/delete-instance/delete-instance.command';
import type { InstanceSummary, ListInstancesResult } from '../instances/list-instances/list-instances.query';
import type { RenewInstanceResult } from '../instances/renew-instance/renew-instance.command';
import type { ResetInstanceTokenResult } from '../instances/reset-instance-token/reset-instance-token.command';
import type { RedeliverResult } from '../notifications/redeliver/redeliver.command';
import type { ChangeWebhookResult } from '../webhooks/change-webhook/change-webhook.command';
import type { WebhookLogsResult } from '../webhooks/get-webhook-logs/get-webhook-logs.query';
import type { WebhookStatusResult } from '../webhooks/get-webhook-status/get-webhook-status.query';
import type { RotateSigningSecretResult } from '../webhooks/rotate-signing-secret/rotate-signing-secret.command';
import type { TestWebhookResult } from '../webhooks/test-webhook/test-webhook.command';
import {
  arrayOf,
  boolean,
  constant,
  integer,
  nullable,
  object,
  oneOf,
  oneOfValues,
  optional,
  text,
  timestamp,
  type AnySchema,
  type Schema,
} from './json-schema';

/** What an operation answers on success, and the codes it can refuse with after its parameters'
 * form is checked: authentication (stage 2) and the rest (stage 3), docs/api.md section 2. */
export interface Answer {
  summary: string;
  fields: AnySchema;
  refusals: readonly ErrorCode[];
}

/** Ties a success shape to its handler: the shape must describe the handler's result type. */
function answer<Result>(
  handler: Type<MessageHandler<never, Result>>,
  summary: string,
  fields: Schema<NoInfer<Result>>,
  refusals: readonly ErrorCode[],
): [Type<unknown>, Answer] {
  return [handler, { summary, fields, refusals }];
}

/** Every value of a string union, checked complete by the compiler. */
const valuesOf = <V extends string>(all: Record<V, true>): V[] => Object.keys(all) as V[];

const kinds = arrayOf(oneOfValues(NOTIFICATION_KINDS), 'the notification kinds in force, in canonical order (docs/api.md 8.4)');
const signingSecret = optional(text('the whsec_ signing secret; present once one exists (docs/api.md section 6)'));
const instanceStatus = oneOfValues(['active', 'expired'] as const, 'active while now < expiresAt');

type Notification = NotificationsResult['notifications'][number];
type Body = Notification['body'];
/** A message's or ack's personal field: null after an erasure (docs/api.md section 9). */
const personal = () => nullable(text());

const message = object<Extract<Body, { messages: unknown }>['messages'][number]>({
  id: text(),
  chatId: personal(),
  from: personal(),
  fromMe: boolean(),
  senderName: personal(),
  type: text(),
  body: personal(),
  time: integer('Unix seconds'),
});
const ack = object<Extract<Body, { ack: unknown }>['ack'][number]>({
  id: text(),
  chatId: personal(),
  status: oneOfValues(ACK_STATUSES),
  time: integer('Unix seconds'),
});
const notice = oneOf(
  object<Extract<InstanceNotice, { event: 'expiring' }>>({ event: constant('expiring'), expiresAt: timestamp() }),
  object<Extract<InstanceNotice, { event: 'renewed' }>>({ event: constant('renewed'), packageid: text(), expiresAt: timestamp() }),
);
const notificationBody: Schema<Body> = oneOf(
  object<Extract<Body, { messages: unknown }>>({ instanceId: text(), sequence: integer(), messages: arrayOf(message) }),
  object<Extract<Body, { ack: unknown }>>({ instanceId: text(), sequence: integer(), ack: arrayOf(ack) }),
  object<Extract<Body, { instance: unknown }>>({ instanceId: text(), sequence: integer(), instance: notice }),
);

const summary = object<InstanceSummary>({
  instanceid: text(),
  packageid: text(),
  createdAt: timestamp(),
  expiresAt: timestamp(),
  status: instanceStatus,
  webhookUrl: text('"" when none is registered'),
  webhookEnabled: boolean(),
  events: kinds,
  signingSecret,
});

const attempt = object<DeliveryAttemptRow>({
  at: timestamp(),
  sequence: nullable(integer('null for a test notification')),
  webhookId: text(),
  status: integer("the receiver's HTTP status, 0 when no answer came"),
  error: text('why no answer came: timeout, refused, reset, TLS, address not allowed; "" otherwise'),
  durationMs: integer(),
  nextAttemptAt: nullable(timestamp('null when no retry is scheduled')),
  test: boolean(),
});

const { AccountAuthFailed, UnknownPackage, NoSuchInstance, InstanceAuthFailed, InstanceExpired, WebhookUrlRefused, ConcurrentChange, DeliveryOff, MalformedParameter } = Codes;

/** Every public operation's summary, success shape and refusal codes, by the handler that answers it
 * (docs/api.md sections 4 and 8). */
export const ANSWERS: ReadonlyMap<Type<unknown>, Answer> = new Map([
  answer(
    CreateInstanceHandler,
    'Creates an instance under a package (4.1); `token` carries the account API key here',
    object<CreateInstanceResult>({
      instanceid: text(),
      token: text('the instance token, shown only in this answer'),
      packageid: text(),
      createdAt: timestamp(),
      expiresAt: timestamp(),
    }),
    [AccountAuthFailed, UnknownPackage, ConcurrentChange],
  ),
  answer(
    RenewInstanceHandler,
    "Renews an instance: expiresAt = max(now, expiresAt) + the package's duration (4.2)",
    object<RenewInstanceResult>({ instanceid: text(), packageid: text(), expiresAt: timestamp() }),
    [AccountAuthFailed, UnknownPackage, NoSuchInstance, ConcurrentChange],
  ),
  answer(
    ListInstancesHandler,
    "Lists the account's instances, oldest first (4.3)",
    object<ListInstancesResult>({ instances: arrayOf(summary, 'oldest first') }),
    [AccountAuthFailed],
  ),
  answer(
    DeleteInstanceHandler,
    'Deletes an instance; its history stays in the log (8.1)',
    object<DeleteInstanceResult>({ instanceid: text(), deletedAt: timestamp() }),
    [AccountAuthFailed, NoSuchInstance, ConcurrentChange],
  ),
  answer(
    ResetInstanceTokenHandler,
    'Issues a new instance token; the old one is refused from now on (8.2)',
    object<ResetInstanceTokenResult>({ instanceid: text(), token: text('the new instance token, shown only in this answer') }),
    [AccountAuthFailed, NoSuchInstance, ConcurrentChange],
  ),
  answer(
    ResetApiKeyHandler,
    'Issues a new account API key; the old one is refused from now on (8.3)',
    object<ResetApiKeyResult>({ email: text(), apikey: text('the new API key, shown only in this answer') }),
    [AccountAuthFailed, ConcurrentChange],
  ),
  answer(
    ChangeWebhookHandler,
    'Registers the webhook URL and its event kinds, or switches delivery off with an empty URL (4.4, 4.6, 8.4)',
    object<ChangeWebhookResult>({ webhookUrl: text('as sent; "" when delivery was switched off'), enabled: boolean(), events: kinds, signingSecret }),
    [InstanceAuthFailed, InstanceExpired, WebhookUrlRefused, ConcurrentChange],
  ),
  answer(
    GetWebhookStatusHandler,
    "The instance's webhook URL, event kinds, delivery state and signing secret (4.5)",
    object<WebhookStatusResult>({
      webhookUrl: text('"" when none is registered'),
      enabled: boolean('true only while a URL is registered and the instance is active'),
      instanceStatus,
      events: kinds,
      disabledReason: optional(text('why the receiver switched delivery off (410 Gone)')),
      signingSecret,
    }),
    [InstanceAuthFailed],
  ),
  answer(
    GetWebhookLogsHandler,
    'The latest delivery attempts, newest first (4.8)',
    object<WebhookLogsResult>({ attempts: arrayOf(attempt, 'newest first') }),
    [InstanceAuthFailed],
  ),
  answer(
    RotateSigningSecretHandler,
    'Creates a new signing secret; the previous one also signs for a while (8.5)',
    object<RotateSigningSecretResult>({
      signingSecret: text('the new whsec_ secret'),
      previousValidUntil: nullable(timestamp('until when the previous secret also signs; null for the first')),
    }),
    [InstanceAuthFailed, InstanceExpired, ConcurrentChange],
  ),
  answer(
    TestWebhookHandler,
    'Sends one signed test notification now and tells how it went (8.6); one per instance and TEST_WEBHOOK_CONCURRENCY in all may be in flight, beyond which 0010 answers before anything is sent',
    object<TestWebhookResult>({ delivered: boolean('the receiver answered 2xx'), status: integer('0 when no answer came'), durationMs: integer(), error: text() }),
    [InstanceAuthFailed, InstanceExpired, WebhookUrlRefused, DeliveryOff, ConcurrentChange],
  ),
  answer(
    GetNotificationsHandler,
    "The instance's notifications after a sequence number, ascending (8.7)",
    object<NotificationsResult>({
      lastSequence: integer('the highest sequence the instance has, 0 when none'),
      notifications: arrayOf(
        object<Notification>({
          sequence: integer(),
          webhookId: text(),
          createdAt: timestamp(),
          state: oneOfValues(valuesOf<NotificationOutcome>({ pending: true, delivered: true, deadLettered: true, cancelled: true })),
          body: notificationBody,
        }),
        'ascending by sequence',
      ),
    }),
    [InstanceAuthFailed],
  ),
  answer(
    RedeliverHandler,
    'Queues notifications again, by sequence range, with a new retry schedule (8.8)',
    object<RedeliverResult>({ queued: integer('how many notifications were queued again') }),
    // 0002 here is a range wider than 1000 that only the domain can see (no `to`: up to the last).
    [InstanceAuthFailed, MalformedParameter, InstanceExpired, DeliveryOff, ConcurrentChange],
  ),
]);
