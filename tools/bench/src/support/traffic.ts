import type { Message } from '@gw/domain-inbox';

/** The incoming messages the bench records: realistic size, ids unique per run and instance. */
export function benchMessage(runId: string, instanceIndex: number, n: number): Message {
  return {
    id: `wamid.${runId}.${instanceIndex}.${n}`,
    chatId: `55119${String(instanceIndex).padStart(8, '0')}@c.us`,
    from: `55119${String(instanceIndex).padStart(8, '0')}@c.us`,
    fromMe: false,
    senderName: 'Bench Sender',
    type: 'chat',
    body: `Hello! This is message ${n} of the benchmark; how are you doing today?`,
    time: 1_767_225_600 + n,
  };
}

/** The body the notifier sends for the n-th (1-based) message of an instance (docs/api.md section 6). */
export function notificationBody(instanceId: string, sequence: number, message: Message): string {
  return JSON.stringify({ instanceId, sequence, messages: [message] });
}

/** Headers of the notifier's requests, with values of the same sizes (the signature is not computed). */
export function webhookHeaders(webhookId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'gateway-hub-notifier/0.1 (+https://www.standardwebhooks.com/)',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${'A'.repeat(43)}=`,
  };
}
