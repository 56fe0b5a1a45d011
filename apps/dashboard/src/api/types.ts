/** The answers of the operations the page calls (docs/api.md sections 4 and 8), as far as it reads them. */

export interface PackageChoice {
  packageid: string;
  durationDays: number;
}

/** What the account host puts into the page (apps/api/src/dashboard/dashboard-files.ts). */
export interface Settings {
  /** PUBLIC_API_URL; '' for the page's own host name on `apiPort`. */
  apiUrl: string;
  apiPort: number;
  packages: PackageChoice[];
}

export type Kind = 'messages' | 'ownMessages' | 'acks' | 'instance' | 'state';
export const KINDS: readonly Kind[] = ['messages', 'ownMessages', 'acks', 'instance', 'state'];

export interface ListedInstance {
  instanceid: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
  status: 'active' | 'expired';
  webhookUrl: string;
  webhookEnabled: boolean;
  events: Kind[];
  label: string | null;
  state: string | null;
}

/** One page of listInstances (docs/api.md 13.1). */
export interface InstancePage {
  instances: ListedInstance[];
  next: string | null;
}

/** What a page of listInstances asks for; absent fields are not sent. */
export interface InstanceQuery {
  limit?: number;
  after?: string;
  status?: 'active' | 'expired';
  label?: string;
}

/** One instance's counts on one UTC day (docs/api.md 13.3). */
export interface UsageDay {
  instanceid: string;
  day: string;
  messages: number;
  acks: number;
  notificationsDelivered: number;
  attemptsFailed: number;
}

export interface UsageAnswer {
  from: string;
  to: string;
  usage: UsageDay[];
}

export interface CreatedInstance {
  instanceid: string;
  token: string;
  packageid: string;
  createdAt: string;
  expiresAt: string;
}

export type SignatureScheme = 'hmac' | 'ed25519';

/** How the receiver has answered lately (docs/api.md section 12). */
export interface EndpointHealth {
  consecutiveFailures: number;
  failingSince: string | null;
  lastSuccessAt: string | null;
}

export interface WebhookStatus {
  webhookUrl: string;
  enabled: boolean;
  instanceStatus?: 'active' | 'expired';
  events: Kind[];
  signingSecret?: string;
  disabledReason?: string;
  /** The receiver's options (section 12): the scheme, header names (values shown as "***"), the public key. */
  signatureScheme?: SignatureScheme;
  webhookHeaders?: Record<string, string>;
  signingPublicKey?: string;
  health?: EndpointHealth;
}

/** The receiver's options to change; one left out keeps its value. */
export interface ReceiverOptions {
  webhookHeaders?: string;
  signatureScheme?: SignatureScheme;
}

export interface Rotation {
  signingSecret: string;
  previousValidUntil: string | null;
  /** Under ed25519: the new key pair's public key. */
  signingPublicKey?: string;
}

export interface TestResult {
  delivered: boolean;
  status: number;
  durationMs: number;
  error: string;
}

export interface Attempt {
  at: string;
  sequence: number | null;
  webhookId: string;
  status: number;
  error: string;
  durationMs: number;
  nextAttemptAt: string | null;
  test?: boolean;
}

export interface NotificationItem {
  sequence: number;
  webhookId: string;
  createdAt: string;
  state: 'pending' | 'delivered' | 'deadLettered' | 'cancelled';
  body: { messages?: unknown[]; ack?: unknown[]; instance?: { event?: string }; state?: { state?: string } };
}

export interface NotificationPage {
  lastSequence: number;
  notifications: NotificationItem[];
}
