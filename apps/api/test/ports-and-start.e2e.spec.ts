import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiProcess, appEntryArgs, NotifierProcess, request, ROOT, tempDataDir } from '@gw/testing';

/**
 * What a person sees when starting the service (README, Quick start): a port that is taken is named
 * with its variable and ends the start with exit 1; `npm start` (tools/start.js) says where the
 * dashboard and the hosts are once everything is ready.
 */

type Ended = { status: number | null; stdout: string; stderr: string };

function collect(child: ChildProcess): { ended: Promise<Ended>; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const ended = new Promise<Ended>((resolve) => child.once('close', (status) => resolve({ status, ...out })));
  return { ended, out };
}

/** A port held by this test, on the address the apps bind in tests. */
async function holdPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

describe('a port that is already in use', () => {
  let held: { port: number; server: Server };
  beforeAll(async () => (held = await holdPort()));
  afterAll(() => held.server.close());

  it.each([
    ['api', 'ACCOUNT_PORT', 'account'],
    ['api', 'API_PORT', 'instance'],
    ['api', 'INTERNAL_PORT', 'internal'],
    ['notifier', 'NOTIFIER_PORT', 'notifier'],
  ] as const)('stops the %s with exit 1 and a message naming %s and the port', async (app, variable, listener) => {
    const dataDir = tempDataDir();
    const base = app === 'api' ? new ApiProcess(dataDir) : new NotifierProcess(dataDir);
    const env = { ...base.processEnv(), [variable]: String(held.port) };
    const child = spawn(process.execPath, appEntryArgs(app), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const { status, stdout, stderr } = await collect(child).ended;
    expect(status).toBe(1);
    const message = `port ${held.port} on 127.0.0.1 (${variable}, the ${listener} listener) is already in use by another process: stop the process that holds it, or set ${variable} to a free port`;
    expect(stderr).toBe(`${app} failed to start: ${message}\n`);
    // The JSON log record says the same, for a log shipper.
    const failed = stdout
      .split('\n')
      .filter((line) => line.includes('"failed to start"'))
      .map((line) => JSON.parse(line) as { error?: { message?: string } });
    expect(failed.map((record) => record.error?.message)).toEqual([message]);
  });

  it('makes npm start (tools/start.js) exit non-zero with the same message', async () => {
    const env = { ...new ApiProcess(tempDataDir()).processEnv(), API_PORT: String(held.port) };
    const child = spawn(process.execPath, [join(ROOT, 'tools/start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const { status, stderr } = await collect(child).ended;
    expect(status).not.toBe(0);
    expect(stderr).toContain(
      `api failed to start: port ${held.port} on 127.0.0.1 (API_PORT, the instance listener) is already in use`,
    );
    expect(stderr).not.toContain('Dashboard:');
  });
});

describe('npm start (tools/start.js) once ready', () => {
  let child: ChildProcess;
  let out: { stdout: string; stderr: string };
  let ended: Promise<Ended>;

  beforeAll(() => {
    // The environment of the e2e apps: loopback, free ports, a data dir of its own.
    const env = new ApiProcess(tempDataDir()).processEnv();
    child = spawn(process.execPath, [join(ROOT, 'tools/start.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    ({ ended, out } = collect(child));
  });
  afterAll(async () => {
    child.kill('SIGTERM');
    await ended;
  });

  const readyLines = async (): Promise<string[]> => {
    const deadline = Date.now() + 60_000;
    while (!/^Notifier: .*\n/m.test(out.stderr)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no ready lines:\n${out.stderr}\n${out.stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return out.stderr
      .split('\n')
      .filter((line) => /^(Dashboard|Account host|Instance host|Internal ingest host|Notifier):/.test(line));
  };

  it('prints the dashboard and the hosts on stderr, each reachable', async () => {
    const lines = await readyLines();
    const url = (label: string) =>
      lines.find((line) => line.startsWith(`${label}: `))?.split(' ')[label.split(' ').length];
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      'Dashboard',
      'Account host',
      'Instance host',
      'Internal ingest host',
      'Notifier',
    ]);
    const dashboard = await request(url('Dashboard')!);
    expect({ status: dashboard.status, type: dashboard.contentType }).toEqual({
      status: 200,
      type: expect.stringMatching(/^text\/html/),
    });
    for (const label of ['Account host', 'Instance host', 'Internal ingest host']) {
      expect(url(label)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect((await request(`${url(label)}healthz`)).status).toBe(200);
    }
    expect((await request(lines[4].split(' ')[1])).status).toBe(200);
  });

  it("leaves stdout to the apps' JSON log lines", async () => {
    await readyLines();
    const lines = out.stdout.split('\n').filter(Boolean);
    expect(lines.some((line) => line.includes('"msg":"ready"'))).toBe(true);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it("runs each app with V8's young generation capped, as the tests run them (tools/apps.js says why)", async () => {
    await readyLines();
    // The apps are tools/start.js's children: their command lines, from /proc.
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          // The parent's pid is the second field after the command's closing parenthesis.
          if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== child.pid) return [];
          return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')];
        } catch (error) {
          // A process that ended meanwhile.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ESRCH')
            return [];
          throw error;
        }
      });
    const entries = children.map((args) => args.find((arg) => arg.endsWith('main.js'))?.replace(ROOT, ''));
    expect(entries.sort()).toEqual(['/dist/apps/api/main.js', '/dist/apps/notifier/main.js']);
    for (const args of children) expect(args).toContain('--max-semi-space-size=16');
  });
});
