import { ERROR_TABLE, type ErrorCode } from '@gw/contract';
import type {
  Attempt,
  CreatedInstance,
  InstancePage,
  InstanceQuery,
  Kind,
  UsageAnswer,
  NotificationPage,
  ReceiverOptions,
  Rotation,
  TestResult,
  WebhookStatus,
} from './types';

/** One problem of a refusal, as the failure envelope reports it (docs/api.md section 2). */
export interface FailureDetail {
  code: string;
  field?: string;
  message: string;
}

/** The service answered `success: false`: its codes and, for people, its details. */
export class ApiFailure extends Error {
  constructor(
    readonly codes: string[],
    readonly details: FailureDetail[],
  ) {
    super(codes.join(', '));
    this.name = 'ApiFailure';
  }
}

/** No envelope came back: the host could not be reached, or answered something else. */
export class NetworkFailure extends Error {
  override name = 'NetworkFailure';
}

/** The contract's words for a code, from the one error table the server answers with. */
export function meaningOf(code: string): string {
  const meaning = Object.hasOwn(ERROR_TABLE, code)
    ? ERROR_TABLE[code as ErrorCode]
    : 'an error this page does not know';
  return meaning.replace(/`/g, '');
}

type Answer = Record<string, unknown>;

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  let response: Response;
  try {
    // Credentials travel as parameters, never as cookies; nothing is cached or sent as a referrer.
    response = await fetch(url, { ...init, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (error) {
    throw new NetworkFailure(
      `could not reach ${new URL(url).origin} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new NetworkFailure(
      `${new URL(url).origin} answered HTTP ${response.status} without a JSON body (${String(error)})`,
    );
  }
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Answer;
  if (answer['success'] === true) return answer;
  if (Array.isArray(answer['msg'])) {
    throw new ApiFailure(
      answer['msg'].map(String),
      Array.isArray(answer['details']) ? (answer['details'] as FailureDetail[]) : [],
    );
  }
  throw new NetworkFailure(`${new URL(url).origin} answered HTTP ${response.status} without the service's envelope`);
}

export { instanceHostUrl } from './instance-host';

/** The account host's operations (docs/api.md 4.1 to 4.3, 8.1, 8.2, 13.1, 13.3): query-string parameters only. */
export class AccountApi {
  constructor(
    readonly email: string,
    private readonly apikey: string,
    /** This page's own origin, which is the account host. */
    private readonly origin: string,
  ) {}

  private get(operation: string, params: Record<string, string>): Promise<Answer> {
    const url = new URL(operation, this.origin);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return call(url.href);
  }

  /** One page of the account's instances (docs/api.md 13.1). */
  async list(query: InstanceQuery): Promise<InstancePage> {
    const params: Record<string, string> = { email: this.email, apikey: this.apikey };
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && value !== '') params[name] = String(value);
    return (await this.get('/listInstances', params)) as unknown as InstancePage;
  }

  async create(packageid: string, label = ''): Promise<CreatedInstance> {
    // `token` carries the account API key on newInstance (docs/api.md 4.1).
    return (await this.get('/newInstance', {
      email: this.email,
      token: this.apikey,
      packageid,
      ...(label ? { label } : {}),
    })) as unknown as CreatedInstance;
  }

  /** Sets the label, or removes it when empty (13.1). */
  async setLabel(instanceid: string, label: string): Promise<void> {
    await this.get('/setInstanceLabel', { email: this.email, apikey: this.apikey, instanceid, label });
  }

  /** One instance's counts over the last 30 days through today (13.3). */
  async usage(instanceid: string): Promise<UsageAnswer> {
    return (await this.get('/getUsage', {
      email: this.email,
      apikey: this.apikey,
      instanceid,
    })) as unknown as UsageAnswer;
  }

  async renew(instanceid: string, packageid: string): Promise<{ expiresAt: string; packageid: string }> {
    return (await this.get('/renewInstance', {
      email: this.email,
      apikey: this.apikey,
      instanceid,
      packageid,
    })) as unknown as { expiresAt: string; packageid: string };
  }

  async remove(instanceid: string): Promise<void> {
    await this.get('/deleteInstance', { email: this.email, apikey: this.apikey, instanceid });
  }

  async resetToken(instanceid: string): Promise<string> {
    return (await this.get('/resetInstanceToken', { email: this.email, apikey: this.apikey, instanceid }))[
      'token'
    ] as string;
  }
}

/** The instance host's operations (docs/api.md 4.4 to 4.8, 8.5 to 8.8), as JSON bodies: the
 * credentials stay out of every URL. */
export class InstanceApi {
  constructor(
    private readonly baseUrl: string,
    readonly instanceid: string,
    private readonly token: string,
  ) {}

  private post(operation: string, params: Record<string, string | number> = {}): Promise<Answer> {
    return call(`${this.baseUrl}${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instanceid: this.instanceid, token: this.token, ...params }),
    });
  }

  async status(): Promise<WebhookStatus> {
    return (await this.post('/getWebhookStatus')) as unknown as WebhookStatus;
  }

  async setWebhook(webhookUrl: string, events: readonly Kind[]): Promise<WebhookStatus> {
    return (await this.post('/webhook', { webhookUrl, events: events.join(',') })) as unknown as WebhookStatus;
  }

  /** The receiver's options (docs/api.md section 12), sent with the URL and kinds in force. */
  async setOptions(webhookUrl: string, events: readonly Kind[], options: ReceiverOptions): Promise<WebhookStatus> {
    const body = { webhookUrl, events: events.join(','), ...options };
    return (await this.post('/webhook', body)) as unknown as WebhookStatus;
  }

  /** An empty URL switches delivery off (docs/api.md 4.4). */
  async clearWebhook(): Promise<WebhookStatus> {
    return (await this.post('/webhook', { webhookUrl: '' })) as unknown as WebhookStatus;
  }

  async rotateSecret(): Promise<Rotation> {
    return (await this.post('/rotateSigningSecret')) as unknown as Rotation;
  }

  async test(webhookUrl: string): Promise<TestResult> {
    return (await this.post('/testWebhook', webhookUrl ? { webhookUrl } : {})) as unknown as TestResult;
  }

  async logs(limit = 20): Promise<Attempt[]> {
    return (await this.post('/getWebhookLogs', { limit }))['attempts'] as Attempt[];
  }

  async notifications(after: number, limit = 100): Promise<NotificationPage> {
    return (await this.post('/getNotifications', { after, limit })) as unknown as NotificationPage;
  }

  async redeliver(from: number, to?: number): Promise<number> {
    return (await this.post('/redeliver', to === undefined ? { from } : { from, to }))['queued'] as number;
  }
}
