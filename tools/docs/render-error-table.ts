// `npm run docs:errors`: rewrites the README's error table from the code's table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withErrorTable } from './error-table';

const readmePath = join(__dirname, '../../../README.md');
writeFileSync(readmePath, withErrorTable(readFileSync(readmePath, 'utf8')));
process.stdout.write('README.md error table updated\n');
