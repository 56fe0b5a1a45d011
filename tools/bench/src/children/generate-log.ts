// Makes the synthetic logs of scenarios e and f straight into a store file (see LogWriter).
//   --kind instances: accounts of 100 instances each (--per-account N: of N), every instance with a
//     webhook (scenarios f and j).
//   --kind replay: a realistic mix up to --events: instances created over the first half of the log,
//     renewals, and traffic (messages and acks, each with its notification and delivery outcome).
import { randomBytes } from 'node:crypto';
import {
  AccountIdentity,
  SecretBox,
  dataKey as heldKey,
  newSigningSecret,
  sealAckWith,
  sealMessageWith,
  type DataKey,
} from '@gw/application';
import { childArgs, emit, required } from '../support/child';
import { LogWriter, prng, writeAccount, writeInstance } from '../support/synthetic-log';

const args = childArgs();
const secretsKey = Buffer.from(required(args, 'secrets-key'), 'hex');
const box = new SecretBox(secretsKey);
const identity = new AccountIdentity(secretsKey);
const PER_ACCOUNT = 100;
const instancesPerAccount = Number(args.get('per-account') ?? PER_ACCOUNT);
const DAY = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The data key of an instance and UTC day, written to its stream on first use, as the service does. */
const dataKeys = new Map<string, DataKey>();
function dataKey(log: LogWriter, instanceId: string, at: string): DataKey {
  const day = at.slice(0, 10).replace(/-/g, '');
  const stream = `datakey-${instanceId}-${day}`;
  const known = dataKeys.get(stream);
  if (known) return known;
  const raw = randomBytes(32);
  const keyId = `${instanceId}.${day}.${randomBytes(4).toString('hex')}`;
  log.add(stream, 'DataKeyCreated', { instanceId, day, keyId, sealedKey: box.seal(raw.toString('base64')) }, at);
  const key = heldKey(keyId, raw);
  dataKeys.set(stream, key);
  return key;
}

function writeInstances(log: LogWriter, count: number): Record<string, number> {
  const now = Date.now();
  let accountId = '';
  for (let i = 0; i < count; i++) {
    if (i % instancesPerAccount === 0) accountId = writeAccount(log, i / instancesPerAccount, iso(now), identity, box);
    writeInstance(log, i, accountId, box.seal(newSigningSecret()), iso(now), iso(now + 30 * DAY));
  }
  return { instances: count, accounts: Math.ceil(count / instancesPerAccount) };
}

function writeMix(log: LogWriter, target: number): Record<string, number> {
  const random = prng(20_260_101);
  const instanceTarget = Math.max(10, Math.round(target / 100));
  const ids: string[] = [];
  const sequences: number[] = [];
  let clock = Date.now() - 30 * DAY;
  const at = () => iso((clock += 2));
  let traffic = 0;
  let accountId = '';
  while (log.events < target) {
    // Instances arrive steadily over the first half of the log; traffic goes to those that exist.
    if (ids.length < Math.min(instanceTarget, 10 + (instanceTarget * log.events) / (target / 2))) {
      const i = ids.length;
      if (i % PER_ACCOUNT === 0) accountId = writeAccount(log, i / PER_ACCOUNT, at(), identity, box);
      const when = at();
      ids.push(writeInstance(log, i, accountId, box.seal(newSigningSecret()), when, iso(Date.parse(when) + 60 * DAY)));
      sequences.push(0);
      continue;
    }
    const k = Math.floor(random() * ids.length);
    const instanceId = ids[k];
    const r = random();
    if (r < 0.01) {
      const renewedAt = at();
      log.add(
        `instance-${instanceId}`,
        'InstanceRenewed',
        { instanceId, packageId: 'annual', renewedAt, expiresAt: iso(Date.parse(renewedAt) + 365 * DAY) },
        renewedAt,
      );
      continue;
    }
    traffic += 1;
    const id = `wamid.bench.${traffic}`;
    const chatId = `55119${String(k).padStart(8, '0')}@c.us`;
    const isMessage = r < 0.6;
    const receivedAt = at();
    // Personal fields sealed as the service seals them (docs/api.md 9.3), the notification copying them.
    const key = dataKey(log, instanceId, receivedAt);
    const content = isMessage
      ? {
          messages: [
            sealMessageWith(key, {
              id,
              chatId,
              from: chatId,
              fromMe: false,
              senderName: 'Bench Sender',
              type: 'chat',
              body: `Hello! This is message ${traffic}; how are you?`,
              time: 1_767_225_600,
            }),
          ],
        }
      : { ack: [sealAckWith(key, { id, chatId, status: 'delivered', time: 1_767_225_600 })] };
    const inboxData = isMessage
      ? { instanceId, message: content.messages![0], receivedAt }
      : { instanceId, ack: content.ack![0], receivedAt };
    log.add(`inbox-${instanceId}`, isMessage ? 'MessageReceived' : 'AckReceived', inboxData, receivedAt);
    const sequence = ++sequences[k];
    const ref = { instanceId, webhookId: `msg_bench${traffic}`, sequence };
    const stream = `notifications-${instanceId}`;
    const createdAt = at();
    log.add(
      stream,
      'NotificationCreated',
      { ...ref, body: { instanceId, sequence, ...content }, sourceEventIds: [id], createdAt },
      createdAt,
    );
    let attempt = 1;
    if (random() < 0.05) {
      const failedAt = at();
      log.add(
        stream,
        'DeliveryAttemptFailed',
        {
          ...ref,
          attempt,
          at: failedAt,
          status: 503,
          error: '',
          durationMs: 40,
          nextAttemptAt: iso(Date.parse(failedAt) + 5000),
        },
        failedAt,
      );
      attempt += 1;
    }
    const deliveredAt = at();
    log.add(
      stream,
      'NotificationDelivered',
      { ...ref, attempt, at: deliveredAt, status: 200, durationMs: 35 },
      deliveredAt,
    );
    if (traffic % 2000 === 0) {
      log.add(
        'notifier-checkpoint-0-of-1',
        'NotifierCheckpointed',
        { partition: 0, partitions: 1, position: String(log.events), at: deliveredAt },
        deliveredAt,
      );
    }
  }
  return { instances: ids.length, accounts: Math.ceil(ids.length / PER_ACCOUNT), traffic };
}

async function main(): Promise<void> {
  const started = performance.now();
  const log = await LogWriter.open(required(args, 'file'));
  const kind = required(args, 'kind');
  const counts =
    kind === 'instances'
      ? writeInstances(log, Number(required(args, 'instances')))
      : writeMix(log, Number(required(args, 'events')));
  log.close();
  emit({ events: log.events, ...counts, seconds: (performance.now() - started) / 1000 });
}

void main();
