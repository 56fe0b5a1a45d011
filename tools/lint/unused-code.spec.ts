import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '@gw/testing';

const FIXTURE = 'tools/lint/__fixtures__/unused-code';

interface KnipIssue {
  file: string;
  files?: unknown;
  exports?: Array<{ name: string }>;
  types?: Array<{ name: string }>;
}

/**
 * Runs knip as `npm run lint` does, with the project's knip.jsonc, except that the fixture project
 * is the code it looks at (lint ignores the fixtures): its entry point and its files.
 */
function knipOnFixture(): { files: string[]; issues: KnipIssue[] } {
  const text = readFileSync(join(ROOT, 'knip.jsonc'), 'utf8');
  const { config, error } = ts.parseConfigFileTextToJson('knip.jsonc', text) as {
    config: Record<string, unknown>;
    error?: unknown;
  };
  if (error) throw new Error('knip.jsonc cannot be read');
  const dir = mkdtempSync(join(process.env['GW_TEST_TMP'] ?? tmpdir(), 'knip-'));
  try {
    const configFile = join(dir, 'knip.json');
    writeFileSync(
      configFile,
      JSON.stringify({ ...config, entry: [`${FIXTURE}/entry.ts`], project: [`${FIXTURE}/**/*.ts`], ignore: [] }),
    );
    const result = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/knip/bin/knip.js'),
        '--config',
        configFile,
        '--include',
        'files,exports,types',
        '--reporter',
        'json',
        '--no-progress',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (!result.stdout) throw new Error(`knip produced no report: ${result.stderr}`);
    return JSON.parse(result.stdout) as { files: string[]; issues: KnipIssue[] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('unused code is refused by lint', () => {
  let report: { files: string[]; issues: KnipIssue[] };
  beforeAll(() => (report = knipOnFixture()));

  it('reports a file that no entry point reaches', () => {
    expect(report.files).toEqual([`${FIXTURE}/orphan.ts`]);
  });

  it('reports an export nobody imports, and not a type exported with the function that uses it', () => {
    const used = report.issues.find((issue) => issue.file === `${FIXTURE}/used.ts`);
    expect(used?.exports?.map((e) => e.name)).toEqual(['nobodyImportsThis']);
    expect(used?.types ?? []).toEqual([]);
  });
});
