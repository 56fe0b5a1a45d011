import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_TABLE } from '@gw/contract';
import { ERROR_TABLE_DOC, START, withErrorTable } from './error-table';

describe('error table of docs/api.md', () => {
  const root = join(__dirname, '../..');
  const doc = readFileSync(join(root, ERROR_TABLE_DOC), 'utf8');

  it('is the table the code uses (run `npm run docs:errors` after changing codes)', () => {
    expect(withErrorTable(doc)).toBe(doc);
  });

  it('lists every code of libs/contract, numbered from 0001 without gaps', () => {
    const codes = Object.keys(ERROR_TABLE);
    expect(codes).toEqual(Array.from({ length: codes.length }, (_, i) => String(i + 1).padStart(4, '0')));
    for (const code of codes) expect(doc).toContain(`| ${code} | ${ERROR_TABLE[code as keyof typeof ERROR_TABLE]} |`);
  });

  it('is in docs/api.md section 3 and nowhere else (no second copy to drift)', () => {
    const [from, to] = [doc.indexOf('\n## 3. Error reference\n'), doc.indexOf('\n## 4. ')];
    expect(from).toBeGreaterThan(0);
    expect(doc.slice(from, to)).toContain(START);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).not.toContain('error-table:start');
  });
});
