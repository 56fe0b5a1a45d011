import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `.env.example` names every variable of README's Configuration table, and no other. */

const root = join(__dirname, '../..');

/** The names in the first column of the table (a row may name several: `A`, `B`). */
function tableVariables(readme: string): string[] {
  const from = readme.indexOf('\n## Configuration\n');
  const to = readme.indexOf('\n## ', from + 1);
  if (from < 0) throw new Error('README has no Configuration section');
  return readme
    .slice(from, to)
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));
}

/** The names assigned in the file, commented out (`# NAME=…`) or not. */
function exampleVariables(text: string): string[] {
  return text.split('\n').flatMap((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1] ?? []);
}

describe('.env.example', () => {
  const table = tableVariables(readFileSync(join(root, 'README.md'), 'utf8'));
  const example = exampleVariables(readFileSync(join(root, '.env.example'), 'utf8'));

  it("names every variable of README's Configuration table, once, and no other", () => {
    expect(table.length).toBeGreaterThan(30);
    expect([...example].sort()).toEqual([...new Set(table)].sort());
    expect(new Set(example).size).toBe(example.length);
  });
});
