// The package groups the lint rules name, and which files are tests (tests may reach further).
import { builtinModules } from 'node:module';

export const FRAMEWORKS = ['@nestjs/*', 'express', 'class-validator', 'class-transformer', 'rxjs', 'reflect-metadata'];
export const STORE_CLIENTS = ['@eventstore/*', 'better-sqlite3'];
// Every Node built-in module (node:sqlite, node:test and whatever comes next included), and the
// packages that reach the network.
export const NODE_IO = [
  ...builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `${m}/*`]),
  'undici',
  'node-fetch',
  'axios',
];
export const testFiles = ['**/*.spec.ts', '**/test/**/*.ts', 'libs/testing/**/*.ts'];
