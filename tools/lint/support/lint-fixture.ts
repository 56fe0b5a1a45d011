import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';

/** One problem ESLint reports. */
export interface LintMessage {
  ruleId: string | null;
  line: number;
  message: string;
}

/** Lints a fixture file (which `npm run lint` ignores) with the project's own configuration. */
export function lintFixture(file: string): LintMessage[] {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/eslint/bin/eslint.js'), '--no-ignore', '--format', 'json', file],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NX_DAEMON: 'false' } },
  );
  if (!result.stdout) throw new Error(`eslint produced no report: ${result.stderr}`);
  const [report] = JSON.parse(result.stdout) as Array<{ messages: LintMessage[] }>;
  return report.messages;
}
