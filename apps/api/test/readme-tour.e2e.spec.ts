import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApiProcess, NotifierProcess, ROOT } from '@gw/testing';

/**
 * README's tour (Using the API, and the first example of Notifications) runs top to bottom as
 * written: its `sh` blocks, in order, in one bash, against a fresh API on ephemeral ports that the
 * blocks' own variables (BASE, API, INGEST, DATA_DIR) point at. Every curl answer must be a success,
 * and an answer the README shows in a `# {…}` comment right below its command must match it: the
 * same keys, the same strings and booleans (a string with `…` stands for any value, or any value
 * with the prefix before `…` when that ends in `_`, as in `gwk_…`), and any number (numbers vary).
 */

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

function section(from: string, to: string): string {
  const start = readme.indexOf(from);
  const end = readme.indexOf(to, start);
  if (start < 0 || end < 0) throw new Error(`README has no section from "${from}" to "${to}"`);
  return readme.slice(start, end);
}

/** The environment of a person's shell: none of the npm variables of the Jest run itself. */
function shellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name)) env[name] = value;
  return { ...env, NODE_ENV: 'test', NX_DAEMON: 'false', ...extra };
}

const shBlocks = (markdown: string) => [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);

/** The tour's blocks: all of Using the API, and Notifications up to its walk-through (which starts servers). */
const TOUR = [
  ...shBlocks(section('## Using the API', '## Dashboard')),
  ...shBlocks(section('## Notifications', '### Walk-through')),
];

/** One command or comment per entry, continuation lines joined. */
const logicalLines = (block: string) =>
  block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
const curlsIn = (line: string) => (line.match(/(?:^|\$\(|;\s*|\|\s*)curl\s/g) ?? []).length;

/** A `# {…}` comment as JSON: elisions (`{…}`, `,…]`, `,…}`) dropped. */
function expectedAnswer(comment: string): unknown {
  const text = comment
    .replace(/^#\s*/, '')
    .replace(/\{…\}/g, '{}')
    .replace(/\[…\]/g, '[]')
    .replace(/,\s*…(?=\s*[\]}])/g, '');
  return JSON.parse(text) as unknown;
}

/** Where `actual` differs from what the README shows, as paths; [] when it matches. */
function differences(expected: unknown, actual: unknown, at = '$'): string[] {
  if (typeof expected === 'string') {
    if (typeof actual !== 'string') return [`${at}: not a string`];
    if (!expected.includes('…'))
      return expected === actual ? [] : [`${at}: ${JSON.stringify(actual)}, README shows ${JSON.stringify(expected)}`];
    const prefix = expected.slice(0, expected.indexOf('…'));
    return prefix.endsWith('_') && !actual.startsWith(prefix) ? [`${at}: does not start with ${prefix}`] : [];
  }
  if (typeof expected === 'number') return typeof actual === 'number' ? [] : [`${at}: not a number`];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: not an array`];
    // A list of names (event kinds) is exact; a list of records only shows what one looks like.
    const names = expected.every((item) => typeof item !== 'object' || item === null);
    return names && JSON.stringify(expected) !== JSON.stringify(actual)
      ? [`${at}: ${JSON.stringify(actual)}, README shows ${JSON.stringify(expected)}`]
      : [];
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${at}: not an object`];
    return Object.entries(expected).flatMap(([key, value]) =>
      key in actual
        ? differences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`)
        : [`${at}.${key}: missing`],
    );
  }
  return expected === actual ? [] : [`${at}: ${JSON.stringify(actual)}, README shows ${JSON.stringify(expected)}`];
}

/** What the README expects, in the order of the curl calls, and the answers shown for other commands. */
function expectations(): { curls: number; byCurl: Map<number, unknown>; others: unknown[] } {
  let curls = 0;
  const byCurl = new Map<number, unknown>();
  const others: unknown[] = [];
  for (const block of TOUR) {
    const lines = logicalLines(block);
    lines.forEach((line, i) => {
      if (!line.startsWith('# {')) {
        if (!line.startsWith('#')) curls += curlsIn(line);
        return;
      }
      const command = lines[i - 1] ?? '';
      if (command.startsWith('#')) throw new Error(`README: an answer comment with no command above it: ${line}`);
      if (curlsIn(command) > 0) byCurl.set(curls - 1, expectedAnswer(line));
      else others.push(expectedAnswer(line));
    });
  }
  return { curls, byCurl, others };
}

describe("README's tour", () => {
  let api: ApiProcess;
  beforeAll(async () => {
    // A name that does not resolve is accepted, and delivery to it fails fast: no network needed.
    api = await ApiProcess.start({ env: { DNS_TIMEOUT_MS: '500', DELIVERY_TIMEOUT_MS: '3000' } });
  });
  afterAll(async () => {
    await api?.stop();
    api?.removeData();
  });

  it('has the blocks this test runs', () => {
    expect(TOUR.length).toBeGreaterThanOrEqual(4);
    expect(expectations().curls).toBeGreaterThanOrEqual(15);
  });

  it('runs top to bottom, every answer a success that matches what the README shows', () => {
    const answersFile = join(api.dataDir, 'tour-answers.jsonl');
    // Every curl also appends its answer, one line each, to a file this test reads back.
    const prelude = `set -euo pipefail
curl() { local answer; answer=$(command curl -sS "$@"); printf '%s\\n' "$answer"; printf '%s\\n' "$answer" >> "$TOUR_ANSWERS"; }
`;
    const env = shellEnv({
      DATA_DIR: api.dataDir,
      BASE: api.accountUrl,
      API: api.apiUrl,
      INGEST: api.internalUrl,
      TOUR_ANSWERS: answersFile,
    });
    const run = spawnSync('bash', ['-c', prelude + TOUR.join('\n')], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 150_000,
    });
    if (run.status !== 0)
      throw new Error(`the tour stopped (${run.status ?? run.signal}):\n${run.stderr}\n${run.stdout}`);

    const answers = readFileSync(answersFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { curls, byCurl, others } = expectations();
    expect(answers).toHaveLength(curls);
    const problems = answers.flatMap((answer, i) => {
      const found = answer['success'] === true ? [] : [`answer ${i + 1} is not a success: ${JSON.stringify(answer)}`];
      return byCurl.has(i) ? [...found, ...differences(byCurl.get(i), answer, `answer ${i + 1}`)] : found;
    });
    expect(problems).toEqual([]);

    // Answers of other commands (the operator CLI's), among the JSON lines the tour printed.
    const printed = run.stdout
      .split('\n')
      .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as unknown] : []));
    for (const expected of others) expect(printed.some((line) => differences(expected, line).length === 0)).toBe(true);
  }, 180_000);
});

describe("README's walk-through", () => {
  const blocks = shBlocks(section('### Walk-through', '### Recovering'));
  let api: ApiProcess;
  let notifier: NotifierProcess;
  beforeAll(async () => {
    // Block 1 is `npm start` with local receivers allowed and the demo account (development): the
    // same apps, started here on ephemeral ports.
    expect(blocks[0]).toContain('ALLOW_PRIVATE_WEBHOOK_TARGETS=true ALLOW_HTTP_WEBHOOKS=true npm start');
    const env = { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', ALLOW_HTTP_WEBHOOKS: 'true', DEMO_ACCOUNT: 'true' };
    api = await ApiProcess.start({ env });
    notifier = await NotifierProcess.start(api.dataDir, env);
  });
  afterAll(async () => {
    await notifier?.stop();
    await api?.stop();
    api?.removeData();
  });

  it('delivers the simulated traffic to the verifying receiver', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const receiverPort = String((free.address() as AddressInfo).port);
    await new Promise((resolve) => free.close(resolve));
    const env = shellEnv({
      DATA_DIR: api.dataDir,
      BASE: api.accountUrl,
      API: api.apiUrl,
      RECEIVER_PORT: receiverPort,
      INTERNAL_PORT: String(api.ports['internal']),
    });
    const run = spawnSync('bash', ['-c', `set -euo pipefail\n${blocks.slice(1).join('\n')}`], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 150_000,
    });
    if (run.status !== 0)
      throw new Error(`the walk-through stopped (${run.status ?? run.signal}):\n${run.stderr}\n${run.stdout}`);

    const printed = run.stdout
      .split('\n')
      .flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, any>] : []));
    const received = printed.filter((line) => 'webhookId' in line);
    expect(received.length).toBeGreaterThan(0);
    expect(new Set(received.map((line) => line.notification.instanceId)).size).toBe(1);
    const logs = printed.at(-1)!;
    expect(logs.success).toBe(true);
    expect(logs.attempts.some((attempt: { status: number }) => attempt.status === 204)).toBe(true);
    expect(run.stderr).not.toContain('rejected');
  }, 180_000);
});
