import { spawn } from 'node:child_process';
import { ApiProcess, expectSuccess, get, OPS_MAIN, ROOT } from '@gw/testing';

/**
 * The operator CLI as scripts call it (docs/api.md section 7): `npm run --silent ops -- …`, which
 * builds first, then runs the command. stdout must hold nothing but the command's JSON lines, so
 * that `… | jq -r .apikey` works, and a reader that closes the pipe early must not crash the CLI.
 */

type Run = { status: number | null; stdout: string; stderr: string };

/** The environment of an operator's shell: none of the npm variables of the Jest run itself. */
function shellEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name)) env[name] = value;
  return { ...env, NODE_ENV: 'test', DATA_DIR: dataDir, NX_DAEMON: 'false' };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, closeStdout = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // The reader goes away before the CLI writes anything: its writes fail with EPIPE.
    if (closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The CLI as `npm run ops` runs it once built. */
const builtCli = (args: string[], env: NodeJS.ProcessEnv, closeStdout = false) =>
  run(process.execPath, [OPS_MAIN, ...args], env, closeStdout);

/** Every stdout line parsed as JSON; fails naming the first line that is not. */
function jsonLines(stdout: string): any[] {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  return lines.map((line) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new Error(`stdout line is not JSON: ${line}`);
    }
  });
}

/** One API for the file: the CLI works on its data dir while it runs, as an operator's would. */
let api: ApiProcess;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  api = await ApiProcess.start();
  env = shellEnv(api.dataDir);
});
afterAll(async () => {
  await api?.stop();
  api?.removeData();
});

describe('npm run --silent ops: stdout holds JSON lines only', () => {
  let instanceid = '';
  const email = 'cat@example.com';
  /** Through `npm run --silent ops`, which builds first: what a script runs. Each run builds (10 s
   * or more), so two commands go this way; the others run the CLI that build made, which is what
   * `npm run ops` runs once built, with the same stdout. */
  const viaNpm = async (...args: string[]) => {
    const result = await run('npm', ['run', '--silent', 'ops', '--', ...args], env);
    expect({ status: result.status, stderr: result.stderr.replace(/^dist\/apps\/dashboard: .*\n/m, '') }).toEqual({
      status: 0,
      stderr: '',
    });
    return jsonLines(result.stdout);
  };
  const ops = async (...args: string[]) => {
    const result = await builtCli(args, env);
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    return jsonLines(result.stdout);
  };

  it('accounts create prints one line whose API key works', async () => {
    const [created, ...rest] = await viaNpm('accounts', 'create', '--email', email);
    expect(rest).toEqual([]);
    expect(created).toEqual({ email, apikey: expect.stringMatching(/^gwk_/) });
    const made = expectSuccess(
      await get(api.accountUrl, '/newInstance', { email, token: created.apikey, packageid: 'trial' }),
    );
    instanceid = made.instanceid;
  }, 120_000);

  it('packages list prints one line per package', async () => {
    const packages = await ops('packages', 'list');
    expect(packages.map((p) => p.packageid)).toEqual(['trial', 'monthly', 'annual']);
  }, 120_000);

  it('events list prints one line per event', async () => {
    const events = await ops('events', 'list', '--limit', '5');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events)
      expect(event).toEqual(expect.objectContaining({ type: expect.any(String), position: expect.any(String) }));
  }, 120_000);

  it('audit timeline --json prints one line per event of the instance', async () => {
    const entries = await viaNpm('audit', 'timeline', '--instance', instanceid, '--json');
    expect(entries[0]).toEqual(expect.objectContaining({ type: 'InstanceCreated', stream: `instance-${instanceid}` }));
  }, 120_000);

  it('audit verify prints one line', async () => {
    const [summary, ...rest] = await ops('audit', 'verify');
    expect(rest).toEqual([]);
    expect(summary).toEqual(expect.objectContaining({ verified: true }));
  }, 120_000);

  it('deliveries resend, instances erase and accounts reset-key print one line each', async () => {
    expect(await ops('deliveries', 'resend', '--instance', instanceid)).toEqual([{ instance: instanceid, resent: 0 }]);
    expect(await ops('instances', 'erase', '--instance', instanceid)).toEqual([
      expect.objectContaining({ instance: instanceid }),
    ]);
    expect(await ops('accounts', 'reset-key', '--email', email)).toEqual([
      { email, apikey: expect.stringMatching(/^gwk_/) },
    ]);
  }, 240_000);
});

describe('ops with its stdout closed by the reader (EPIPE)', () => {
  const cli = (args: string[], closeStdout: boolean) => builtCli(args, env, closeStdout);

  it('accounts create says on stderr that the account exists and how to get a key, and exits 1', async () => {
    const lost = await cli(['accounts', 'create', '--email', 'pipe@example.com'], true);
    expect(lost.status).toBe(1);
    expect(lost.stderr).toBe(
      'error: stdout was closed before the result was written; the account of pipe@example.com exists: run `accounts reset-key --email pipe@example.com` for a key\n',
    );
    // It did its work to the end: the account exists, and the advice works.
    const reset = await cli(['accounts', 'reset-key', '--email', 'pipe@example.com'], false);
    expect(reset.status).toBe(0);
    expect(jsonLines(reset.stdout)).toEqual([{ email: 'pipe@example.com', apikey: expect.stringMatching(/^gwk_/) }]);
  });

  it('a listing whose reader went away stops quietly', async () => {
    const listed = await cli(['events', 'list'], true);
    expect({ status: listed.status, stderr: listed.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
