import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '@gw/testing';
import { openApiDocument, type PublicHost } from './openapi-document';

// Both generated documents through Redocly CLI's `recommended` ruleset (redocly.yaml), with every
// way out to the network refused: a lint step must not depend on, or talk to, anything outside.

/** Loaded into the CLI's process first: any connection or name lookup is reported and refused. */
const NO_NETWORK = `
const net = require('node:net');
const dns = require('node:dns');
const refuse = (what) => {
  process.stderr.write('network attempt: ' + what + '\\n');
  throw new Error('the network is refused here');
};
net.Socket.prototype.connect = function (options) { refuse('connect ' + JSON.stringify(options)); };
dns.lookup = (host) => refuse('lookup ' + host);
dns.promises.lookup = async (host) => refuse('lookup ' + host);
`;

type Problem = { ruleId: string; severity: string; message: string; location?: Array<{ pointer?: string }> };

describe('Redocly CLI on the generated documents', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'redocly-'));
    writeFileSync(join(dir, 'no-network.cjs'), NO_NETWORK);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const lint = (host: PublicHost) => {
    const file = join(dir, `${host}.json`);
    writeFileSync(file, JSON.stringify(openApiDocument(host)));
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
    const result = spawnSync(
      process.execPath,
      [
        '--require',
        join(dir, 'no-network.cjs'),
        cli,
        'lint',
        file,
        '--config',
        join(ROOT, 'redocly.yaml'),
        '--format',
        'json',
      ],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as { problems: Problem[] };
    return { status: result.status, stderr: result.stderr, problems: report.problems };
  };

  it.each<PublicHost>(['account', 'instance'])(
    'passes the recommended ruleset on the %s host with no error, offline',
    (host) => {
      const { status, stderr, problems } = lint(host);
      expect(stderr).not.toContain('network attempt');
      const errors = problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} at ${p.location?.[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(status).toBe(0);
    },
  );
});
