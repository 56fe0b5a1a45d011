import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';

interface Cruise {
  summary: { violations: Array<{ rule: { name: string }; cycle?: Array<{ name: string }> }> };
}

/** Cruises `dir` with the project's own configuration, fixtures included (lint excludes them). */
function cruise(dir: string): Cruise {
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      dir,
      '--config',
      '.dependency-cruiser.js',
      '--exclude',
      '(^|/)node_modules/',
      '--output-type',
      'json',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (!result.stdout) throw new Error(`dependency-cruiser produced no report: ${result.stderr}`);
  return JSON.parse(result.stdout) as Cruise;
}

describe('import cycles are refused by lint', () => {
  it('refuses two modules that import each other, even when one direction imports only a type', () => {
    const { violations } = cruise('tools/lint/__fixtures__/import-cycle').summary;
    expect(violations.map((v) => v.rule.name)).toContain('no-circular');
    const cycle = violations.find((v) => v.rule.name === 'no-circular')?.cycle?.map((step) => step.name) ?? [];
    expect(cycle.map((name) => name.split('/').pop()).sort()).toEqual(['first.ts', 'second.ts']);
  });
});
