// Makes the synthetic logs of scenarios e and f straight into a store file (see LogWriter).
//   --kind instances: accounts of 100 instances each, every instance with a webhook (scenario f).
//   --kind replay: a realistic mix up to --events: instances created over the first half of the log,
//     renewals, and traffic (messages and acks, each with its notification and delivery outcome).
import { SecretBox, newSigningSecret } from '@gw/application';
import { childArgs, emit, required } from '../support/child';
import { LogWriter, prng, syntheticAccount, writeAccount, writeInstance } from '../support/synthetic-log';

const args = childArgs();
const box = new SecretBox(Buffer.from(required(args, 'secrets-key'), 'hex'));
const PER_ACCOUNT = 100;
const DAY = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function writeInstances(log: LogWriter, count: number): Record<string, number> {
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const a = Math.floor(i / PER_ACCOUNT);
    if (i % PER_ACCOUNT === 0) writeAccount(log, a, iso(now));
    writeInstance(log, i, syntheticAccount(a).email, box.seal(newSigningSecret()), iso(now), iso(now + 30 * DAY));
  }
  return { instances: count, accounts: Math.ceil(count / PER_ACCOUNT) };
}

function writeMix(log: LogWriter, target: number): Record<string, number> {
  const random = prng(20_260_101);
  const instanceTarget = Math.max(10, Math.round(target / 100));
  const ids: string[] = [];
  const sequences: number[] = [];
  let clock = Date.now() - 30 * DAY;
  const at = () => iso((clock += 2));
  let traffic = 0;
  while (log.events < target) {
    // Instances arrive steadily over the first half of the log; traffic goes to those that exist.
    if (ids.length < Math.min(instanceTarget, 10 + (instanceTarget * log.events) / (target / 2))) {
      const i = ids.length;
      if (i % PER_ACCOUNT === 0) writeAccount(log, i / PER_ACCOUNT, at());
      const when = at();
      ids.push(writeInstance(log, i, syntheticAccount(Math.floor(i / PER_ACCOUNT)).email, box.seal(newSigningSecret()), when, iso(Date.parse(when) + 60 * DAY)));
      sequences.push(0);
      continue;
    }
    const k = Math.floor(random() * ids.length);
    const instanceId = ids[k];
    const r = random();
    if (r < 0.01) {
      const renewedAt = at();
      log.add(`instance-${instanceId}`, 'InstanceRenewed', { instanceId, packageId: 'annual', renewedAt, expiresAt: iso(Date.parse(renewedAt) + 365 * DAY) }, renewedAt);
      continue;
    }
    traffic += 1;
    const id = `wamid.bench.${traffic}`;
    const chatId = `55119${String(k).padStart(8, '0')}@c.us`;
    const isMessage = r < 0.6;
    const receivedAt = at();
    const content = isMessage
      ? { messages: [{ id, chatId, from: chatId, fromMe: false, senderName: 'Bench Sender', type: 'chat', body: `Hello! This is message ${traffic}; how are you?`, time: 1_767_225_600 }] }
      : { ack: [{ id, chatId, status: 'delivered', time: 1_767_225_600 }] };
    const inboxData = isMessage ? { instanceId, message: content.messages![0], receivedAt } : { instanceId, ack: content.ack![0], receivedAt };
    log.add(`inbox-${instanceId}`, isMessage ? 'MessageReceived' : 'AckReceived', inboxData, receivedAt);
    const sequence = ++sequences[k];
    const ref = { instanceId, webhookId: `msg_bench${traffic}`, sequence };
    const stream = `notifications-${instanceId}`;
    const createdAt = at();
    log.add(stream, 'NotificationCreated', { ...ref, body: { instanceId, sequence, ...content }, sourceEventIds: [id], createdAt }, createdAt);
    let attempt = 1;
    if (random() < 0.05) {
      const failedAt = at();
      log.add(stream, 'DeliveryAttemptFailed', { ...ref, attempt, at: failedAt, status: 503, error: '', durationMs: 40, nextAttemptAt: iso(Date.parse(failedAt) + 5000) }, failedAt);
      attempt += 1;
    }
    const deliveredAt = at();
    log.add(stream, 'NotificationDelivered', { ...ref, attempt, at: deliveredAt, status: 200, durationMs: 35 }, deliveredAt);
    if (traffic % 2000 === 0) {
      log.add('notifier-checkpoint-0-of-1', 'NotifierCheckpointed', { partition: 0, partitions: 1, position: String(log.events), at: deliveredAt }, deliveredAt);
    }
  }
  return { instances: ids.length, accounts: Math.ceil(ids.length / PER_ACCOUNT), traffic };
}

async function main(): Promise<void> {
  const started = performance.now();
  const log = await LogWriter.open(required(args, 'file'));
  const kind = required(args, 'kind');
  const counts = kind === 'instances' ? writeInstances(log, Number(required(args, 'instances'))) : writeMix(log, Number(required(args, 'events')));
  log.close();
  emit({ events: log.events, ...counts, seconds: (performance.now() - started) / 1000 });
}

void main();
