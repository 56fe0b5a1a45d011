import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@gw/testing';

const FIXTURES = 'tools/lint/__fixtures__/formatting';

/** `prettier --check`, as `npm run lint:format` runs it, with the project's own .prettierrc.json, on
 * one fixture (the project's .prettierignore leaves fixtures out of lint; an empty ignore file here). */
function check(fixture: string): { status: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/prettier/bin/prettier.cjs'),
      '--check',
      '--ignore-path',
      join(ROOT, FIXTURES, 'none.ignore'),
      join(FIXTURES, fixture),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('formatting is checked by lint', () => {
  it('refuses a file Prettier would lay out differently, naming it', () => {
    const { status, output } = check('unformatted.fixture.ts');
    expect(status).toBe(1);
    expect(output).toContain('unformatted.fixture.ts');
  });

  it('passes the same code laid out as Prettier does', () => {
    expect(check('formatted.fixture.ts').status).toBe(0);
  });
});
