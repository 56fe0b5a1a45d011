// `npm run simulate -- --instance ID --messages N --rate R`: records realistic traffic for an
// instance through the internal ingest host, as the gateway would: incoming messages, and outgoing
// ones followed by their acks (sent, delivered, read). For demos and benchmarks.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@gw/config';

const NAMES = ['Ana', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Farah', 'Goran', 'Hana'];
const TEXTS = [
  'Hi! Is the order ready?',
  'On my way 🚗',
  'Thanks, received.',
  'Can we move the call to 3pm?',
  'Photo attached',
  'ok 👍',
];

interface Options {
  instance: string;
  messages: number;
  rate: number;
  url: string;
  token: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      instance: { type: 'string' },
      messages: { type: 'string', default: '10' },
      rate: { type: 'string', default: '5' },
      url: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  const messages = Number(values.messages);
  const rate = Number(values.rate);
  if (!values.instance) throw new Error('--instance is required');
  if (!Number.isInteger(messages) || messages < 1) throw new Error('--messages must be a whole number above 0');
  if (!(rate > 0)) throw new Error('--rate must be a number of messages per second above 0');
  return {
    instance: values.instance,
    messages,
    rate,
    url: values.url ?? `http://127.0.0.1:${config.http.internalPort}`,
    token: config.secrets.internalToken,
  };
}

const pick = <T>(list: readonly T[], i: number) => list[i % list.length];

async function post(options: Options, kind: 'messages' | 'acks', body: unknown): Promise<void> {
  const response = await fetch(`${options.url}/instances/${encodeURIComponent(options.instance)}/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 202) throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
}

async function main(): Promise<void> {
  const options = readOptions();
  const run = Date.now().toString(36);
  const started = Date.now();
  let acks = 0;
  for (let i = 0; i < options.messages; i++) {
    // Paced from the start, so that slow answers do not lower the offered rate.
    const due = started + (i * 1000) / options.rate;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const id = `sim-${run}-${i}`;
    const chatId = `${5511900000000 + (i % 7)}@c.us`;
    const fromMe = i % 3 === 2;
    const time = Math.floor(Date.now() / 1000);
    await post(options, 'messages', {
      id,
      chatId,
      from: fromMe ? 'me' : chatId,
      fromMe,
      senderName: fromMe ? '' : pick(NAMES, i),
      type: 'chat',
      body: pick(TEXTS, i),
      time,
    });
    if (fromMe) {
      for (const status of ['sent', 'delivered', 'read']) {
        await post(options, 'acks', { id, chatId, status, time });
        acks += 1;
      }
    }
  }
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(
    `${JSON.stringify({ instance: options.instance, messages: options.messages, acks, seconds })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `error: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
