import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_TABLE } from '@gw/contract';
import { withErrorTable } from './error-table';

describe('README error table', () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');

  it('is the table the code uses (run `npm run docs:errors` after changing codes)', () => {
    expect(withErrorTable(readme)).toBe(readme);
  });

  it('lists every contract code from 0001 to 0014', () => {
    const codes = Object.keys(ERROR_TABLE);
    expect(codes).toEqual(Array.from({ length: 14 }, (_, i) => String(i + 1).padStart(4, '0')));
    for (const code of codes) expect(readme).toContain(`| ${code} |`);
  });
});
