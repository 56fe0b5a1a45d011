// `npm run docs:errors`: rewrites the error table of docs/api.md (section 3) from the code's table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_TABLE_DOC, withErrorTable } from './error-table';

const docPath = join(__dirname, '../../..', ERROR_TABLE_DOC);
writeFileSync(docPath, withErrorTable(readFileSync(docPath, 'utf8')));
process.stdout.write(`${ERROR_TABLE_DOC} error table updated\n`);
