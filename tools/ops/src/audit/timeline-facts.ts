import { writtenAt } from '@gw/application';
import type { RecordedEvent } from '@gw/event-store';

/** What the timeline shows for a personal field whose data key was destroyed (docs/api.md 9.3). */
export const ERASED = '[erased]';

/** Opens what the store holds sealed: a message's or ack's personal fields and an account's address,
 * each shown as `ERASED` once its data key is gone. */
export interface Openers {
  message(instanceId: string, message: Data): Promise<Data>;
  ack(instanceId: string, ack: Data): Promise<Data>;
  email(sealed: string): Promise<string>;
}

type Facts = Record<string, unknown>;
export type Data = Record<string, unknown>;

/**
 * The facts the timeline shows of each event type, by allow-list: a field is shown only when named
 * here, so that a hash, token, key or sealed value added to an event later is never printed by
 * accident. Personal fields of messages and acks are opened (or shown as erased).
 */
const FACTS: Record<string, (data: Data, open: Openers) => Facts | Promise<Facts>> = {
  AccountRegistered: async (d, open) => ({
    email: typeof d['email'] === 'string' ? await open.email(d['email']) : undefined,
  }),
  ApiKeyReset: () => ({}),
  AccountErased: () => ({}),
  InstanceCreated: (d) => ({ instanceid: d['instanceId'], package: d['packageId'], expiresAt: d['expiresAt'] }),
  InstanceRenewed: (d) => ({ package: d['packageId'], expiresAt: d['expiresAt'] }),
  WebhookSet: (d) => ({ url: d['url'], events: d['events'] ?? 'default' }),
  WebhookCleared: () => ({}),
  WebhookDisabledByReceiver: (d) => ({ url: d['url'], reason: d['reason'] }),
  SigningSecretIssued: () => ({}),
  SigningSecretRotated: (d) => ({ previousValidUntil: d['previousValidUntil'] }),
  WebhookHeadersSet: (d) => ({ headers: d['names'] }),
  SignatureSchemeChosen: (d) => ({ scheme: d['scheme'] }),
  SigningKeyPairIssued: (d) => ({ publicKey: d['publicKey'] }),
  SigningKeyPairRotated: (d) => ({ publicKey: d['publicKey'], previousValidUntil: d['previousValidUntil'] }),
  WebhookDisabledForFailing: (d) => ({ url: d['url'], reason: 'failing', failingSince: d['failingSince'] }),
  InstanceTokenReset: () => ({}),
  InstanceDeleted: () => ({}),
  InstanceLabelSet: (d) => ({ label: d['label'] }),
  InstanceStateReported: (d) => ({ state: d['state'], since: d['since'] }),
  MessageReceived: async (d, open) => {
    const m = await open.message(String(d['instanceId']), (d['message'] ?? {}) as Data);
    return {
      id: m['id'],
      chatId: m['chatId'],
      from: m['from'],
      fromMe: m['fromMe'],
      senderName: m['senderName'],
      messageType: m['type'],
      body: m['body'],
      time: m['time'],
    };
  },
  AckReceived: async (d, open) => {
    const a = await open.ack(String(d['instanceId']), (d['ack'] ?? {}) as Data);
    return { id: a['id'], chatId: a['chatId'], status: a['status'], time: a['time'] };
  },
  NotificationCreated: (d) => ({ sequence: d['sequence'], webhookId: d['webhookId'], carries: carries(d['body']) }),
  DeliveryAttemptFailed: (d) => ({
    sequence: d['sequence'],
    attempt: d['attempt'],
    outcome: 'failed',
    status: d['status'],
    error: d['error'],
    nextAttemptAt: d['nextAttemptAt'],
  }),
  NotificationDelivered: (d) => ({
    sequence: d['sequence'],
    attempt: d['attempt'],
    outcome: 'delivered',
    status: d['status'],
  }),
  NotificationDeadLettered: (d) => ({ sequence: d['sequence'], outcome: 'deadLettered' }),
  NotificationCancelled: (d) => ({ sequence: d['sequence'], outcome: 'cancelled', reason: d['reason'] }),
  NotificationResent: (d) => ({ sequence: d['sequence'], outcome: 'resent' }),
  NotificationRedelivered: (d) => ({ sequence: d['sequence'], outcome: 'redelivered' }),
  TestNotificationAttempted: (d) => ({
    test: true,
    webhookId: d['webhookId'],
    status: d['status'],
    error: d['error'] || undefined,
  }),
  PersonalDataErased: (d) => ({ days: d['days'] ?? 'all', reason: d['reason'] }),
};

/** What a notification carries, by kind and count, not its content (the recorded events show that). */
function carries(body: unknown): string | undefined {
  const b = (body ?? {}) as Data;
  if (Array.isArray(b['messages'])) return `${b['messages'].length} message(s)`;
  if (Array.isArray(b['ack'])) return `${b['ack'].length} ack(s)`;
  const state = b['state'] as Data | undefined;
  if (state) return `connection state (${String(state['state'])})`;
  const notice = b['instance'] as Data | undefined;
  return notice ? `instance notice (${String(notice['event'])})` : undefined;
}

/** One line of the timeline, as `--json` prints it. */
export interface TimelineEntry {
  at: string;
  stream: string;
  position: string;
  type: string;
  data: Facts;
}

export async function timelineEntry(event: RecordedEvent, open: Openers): Promise<TimelineEntry> {
  const describe = FACTS[event.type];
  const facts = describe ? await describe((event.data ?? {}) as Data, open) : {};
  // Absent facts are left out, so that a line shows only what the event says.
  const data = Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== undefined));
  return {
    at: writtenAt(event),
    stream: event.streamName,
    position: event.position.toString(),
    type: event.type,
    data,
  };
}

/** The readable line: time, type, then `name=value` facts (strings with spaces quoted). */
export function formatEntry(entry: TimelineEntry): string {
  const facts = Object.entries(entry.data).map(([name, value]) => `${name}=${formatValue(value)}`);
  return [entry.at, entry.type.padEnd(26), ...facts].join(' ').trimEnd();
}

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return String(value);
}
