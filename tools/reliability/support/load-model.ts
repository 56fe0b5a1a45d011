/**
 * What a client of the load test knows of one instance, as far as answers told it: the state the
 * last acknowledged change left, and the changes after it whose outcome is unknown (no answer,
 * 0011 or 0012). The service must show the acknowledged state, or that state with some of the
 * unknown changes after it applied: docs/api.md 4.7 read per instance, whose operations the test
 * never runs concurrently, so "after" is well defined.
 */
export interface TrackedInstance {
  instanceid: string;
  token: string;
  createdAt: string;
  /** Set while an operation on this instance is in flight (one at a time). */
  busy: boolean;
  packageid: string;
  expiresAt: string;
  renewsAfter: string[];
  webhookUrl: string;
  webhooksAfter: string[];
  signingSecret?: string;
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DURATION_DAYS: Record<string, number> = { trial: 3, monthly: 30, annual: 365 };

/** Every total of a subset of `items` (small lists only). */
function subsetSums(items: number[]): Set<number> {
  let sums = new Set([0]);
  for (const item of items) sums = new Set([...sums, ...[...sums].map((s) => s + item)]);
  return sums;
}

/**
 * Whether a package and expiry seen for `t` follow from its acknowledged state: the last
 * acknowledged values, or (after unknown renewals) the package of one of those and an expiry
 * moved on by the durations of some of them. Instances stay active throughout, so each renewal
 * adds exactly its duration.
 */
export function planExplained(t: TrackedInstance, packageid: string, expiresAt: string): boolean {
  if (packageid === t.packageid && expiresAt === t.expiresAt) return true;
  if (!t.renewsAfter.includes(packageid)) return false;
  const moved = Date.parse(expiresAt) - Date.parse(t.expiresAt);
  const sums = subsetSums(t.renewsAfter.map((p) => DURATION_DAYS[p] * DAY_MS));
  return moved > 0 && sums.has(moved);
}

/** Whether the expiry a renewal to `packageid` answered is the acknowledged one moved on by that
 * package's duration and by those of some of the renewals of unknown outcome before it. */
export function renewalExplained(t: TrackedInstance, packageid: string, expiresAt: string): boolean {
  const moved = Date.parse(expiresAt) - Date.parse(t.expiresAt) - DURATION_DAYS[packageid] * DAY_MS;
  return subsetSums(t.renewsAfter.map((p) => DURATION_DAYS[p] * DAY_MS)).has(moved);
}

/** The webhook URLs the service may show for `t`: the acknowledged one or an unknown later one. */
export function webhookExplained(t: TrackedInstance, webhookUrl: string): boolean {
  return webhookUrl === t.webhookUrl || t.webhooksAfter.includes(webhookUrl);
}

/** Public IP-literal targets: registration checks them without a DNS lookup, and no notifier runs. */
export const WEBHOOK_URLS = [
  'https://8.8.8.8/hooks/a',
  'https://1.1.1.1/hooks/b?x=1&y=%C3%A9',
  'https://9.9.9.9:8443/hooks/c',
  'https://[2606:4700:4700::1111]/hooks/d',
  'https://8.8.4.4/hooks/é/ü',
];

/** Requests the service must refuse, each with the codes it must answer (docs/api.md sections 2-3). */
export type BadRequest = {
  name: string;
  host: 'account' | 'instance';
  path: string;
  init?: RequestInit;
  query?: Record<string, string>;
  codes: string[];
  status?: number;
};

export function badRequests(
  own: { email: string; apikey: string },
  other: { email: string; apikey: string; instanceid: string },
  t: { instanceid: string; token: string },
): BadRequest[] {
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const me = { instanceid: t.instanceid, token: t.token };
  return [
    {
      name: 'wrong instance token',
      host: 'instance',
      path: '/getWebhookStatus',
      query: { instanceid: t.instanceid, token: `${t.token}x` },
      codes: ['0006'],
    },
    {
      name: 'plain http webhook',
      host: 'instance',
      path: '/webhook',
      init: json({ ...me, webhookUrl: 'http://8.8.8.8/x' }),
      codes: ['0008'],
    },
    {
      name: 'private webhook host',
      host: 'instance',
      path: '/webhook',
      init: json({ ...me, webhookUrl: 'https://10.1.2.3/x' }),
      codes: ['0008'],
    },
    {
      name: 'unknown package',
      host: 'account',
      path: '/renewInstance',
      query: { ...own, instanceid: t.instanceid, packageid: 'lifetime' },
      codes: ['0004'],
    },
    {
      name: 'wrong api key',
      host: 'account',
      path: '/newInstance',
      query: { email: own.email, token: `${own.apikey}x`, packageid: 'trial' },
      codes: ['0003'],
    },
    { name: 'missing api key', host: 'account', path: '/listInstances', query: { email: own.email }, codes: ['0001'] },
    {
      name: 'malformed JSON',
      host: 'instance',
      path: '/webhook',
      init: json(`{"instanceid":"${t.instanceid}","token":`),
      codes: ['0009'],
    },
    {
      name: 'repeated token',
      host: 'instance',
      path: '/getWebhookStatus',
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `instanceid=${t.instanceid}&token=${t.token}&token=${t.token}`,
      },
      codes: ['0002'],
    },
    {
      name: 'array as token',
      host: 'instance',
      path: '/getWebhookLogs',
      init: json({ instanceid: t.instanceid, token: [t.token] }),
      codes: ['0002'],
    },
    {
      name: 'limit out of range',
      host: 'instance',
      path: '/getWebhookLogs',
      init: json({ ...me, limit: 0 }),
      codes: ['0002'],
    },
    {
      name: "another account's instance",
      host: 'account',
      path: '/renewInstance',
      query: { ...own, instanceid: other.instanceid, packageid: 'trial' },
      codes: ['0005'],
    },
    { name: 'unknown path', host: 'instance', path: '/deleteInstance', query: me, codes: ['0013'], status: 404 },
    {
      name: 'wrong method',
      host: 'account',
      path: '/newInstance',
      init: { method: 'POST' },
      query: { email: own.email, token: own.apikey, packageid: 'trial' },
      codes: ['0013'],
      status: 405,
    },
  ];
}
