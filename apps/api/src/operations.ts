import type { Operation, Route } from './http/operation';
import { resetApiKey } from './accounts/reset-api-key/reset-api-key.route';
import { recordInbound } from './ingest/record-inbound/record-inbound.route';
import { reportState } from './ingest/report-state/report-state.route';
import { createInstance } from './instances/create-instance/create-instance.route';
import { deleteInstance } from './instances/delete-instance/delete-instance.route';
import { getInstanceState } from './instances/get-instance-state/get-instance-state.route';
import { listInstances } from './instances/list-instances/list-instances.route';
import { renewInstance } from './instances/renew-instance/renew-instance.route';
import { resetInstanceToken } from './instances/reset-instance-token/reset-instance-token.route';
import { setInstanceLabel } from './instances/set-instance-label/set-instance-label.route';
import { getNotifications } from './notifications/get-notifications/get-notifications.route';
import { redeliver } from './notifications/redeliver/redeliver.route';
import { changeWebhook } from './webhooks/change-webhook/change-webhook.route';
import { getWebhookLogs } from './webhooks/get-webhook-logs/get-webhook-logs.route';
import { getWebhookStatus } from './webhooks/get-webhook-status/get-webhook-status.route';
import { rotateSigningSecret } from './webhooks/rotate-signing-secret/rotate-signing-secret.route';
import { getUsage } from './usage/get-usage/get-usage.route';
import { testWebhook } from './webhooks/test-webhook/test-webhook.route';

/**
 * Every operation of the API, one line each; each lives in its own folder (route, DTO, command or
 * query, handler). The route tables, the Nest module's handlers, the metrics' operation names and
 * the OpenAPI documents are all read from this list. Operations take no HEAD: several GET
 * operations change state (newInstance creates an instance whose token only the answer's body
 * shows), so a HEAD must not run them.
 */
export const OPERATIONS: readonly Operation[] = [
  createInstance,
  renewInstance,
  listInstances,
  deleteInstance,
  resetInstanceToken,
  resetApiKey,
  changeWebhook,
  getWebhookStatus,
  getWebhookLogs,
  rotateSigningSecret,
  testWebhook,
  getNotifications,
  redeliver,
  recordInbound,
  setInstanceLabel,
  getInstanceState,
  reportState,
  getUsage,
];

/** Every route of every operation. */
export const OPERATION_ROUTES: readonly Route[] = OPERATIONS.flatMap((op) => op.routes);
