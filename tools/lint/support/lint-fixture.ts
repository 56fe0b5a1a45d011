import { spawnSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { ROOT } from '@gw/testing';

/** One problem ESLint reports. */
export interface LintMessage {
  ruleId: string | null;
  line: number;
  message: string;
}

/** What ESLint reported for each fixture linted so far in this test file, by path from the root. */
const reports = new Map<string, LintMessage[]>();
/** A file's key in `reports`, whether it is named from the root or absolutely. */
const keyOf = (file: string): string => relative(ROOT, resolve(ROOT, file));

/**
 * Lints fixture files (which `npm run lint` ignores) with the project's own configuration, in one
 * ESLint process: starting ESLint with typed rules costs seconds, so a spec lints all its fixtures
 * at once before its tests (`lintFixture` then answers from what this found).
 */
export function lintFixtures(files: readonly string[]): void {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--no-ignore', '--format', 'json', ...files],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' }, maxBuffer: 64 * 1024 * 1024 },
  );
  if (!result.stdout) throw new Error(`eslint produced no report: ${result.stderr}`);
  const found = JSON.parse(result.stdout) as Array<{ filePath: string; messages: LintMessage[] }>;
  for (const report of found) reports.set(keyOf(report.filePath), report.messages);
  for (const file of files) {
    if (!reports.has(keyOf(file))) throw new Error(`eslint did not report on ${file}`);
  }
}

/** What ESLint reports for a fixture file: from `lintFixtures` if it linted the file, else linted now. */
export function lintFixture(file: string): LintMessage[] {
  const key = keyOf(file);
  if (!reports.has(key)) lintFixtures([file]);
  return reports.get(key)!;
}
