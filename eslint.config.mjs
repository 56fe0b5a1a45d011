// Lint, including the architecture: Nx project tags decide which project may import which, and
// which packages each kind may use. The domain is pure: no framework, no client, no Node I/O, no
// clock and no randomness (those come in through commands).
import { builtinModules } from 'node:module';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const FRAMEWORKS = ['@nestjs/*', 'express', 'class-validator', 'class-transformer', 'rxjs', 'reflect-metadata'];
const STORE_CLIENTS = ['@eventstore/*', 'better-sqlite3'];
// Every Node built-in module (node:sqlite, node:test and whatever comes next included), and the
// packages that reach the network.
const NODE_IO = [...builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `${m}/*`]), 'undici', 'node-fetch', 'axios'];

/** Which projects each kind may depend on, and which packages it may not import. */
const depConstraints = [
  { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'], bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS] },
  {
    sourceTag: 'type:domain',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contract'],
    bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS],
  },
  {
    sourceTag: 'type:application',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contract', 'type:data-access'],
    // Node's crypto is fine here: hashing and sealing secrets is this layer's job.
    bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS],
  },
  {
    sourceTag: 'type:data-access',
    onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:contract', 'type:util'],
    bannedExternalImports: FRAMEWORKS,
  },
  {
    sourceTag: 'type:projections',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contract', 'type:data-access', 'type:util'],
    bannedExternalImports: [...FRAMEWORKS, '@eventstore/*'],
  },
  {
    sourceTag: 'type:config',
    onlyDependOnLibsWithTags: ['type:domain', 'type:contract', 'type:util', 'type:data-access'],
    bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS],
  },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contract'], bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS] },
  // Test support starts the built apps and may open the store directly; only tests use it.
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['*'], bannedExternalImports: [] },
  // Apps reach stores only through the event-store port and the projections lib.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'], bannedExternalImports: STORE_CLIENTS },
];

const pureDomainFiles = ['libs/domain/**/*.ts', 'libs/contract/**/*.ts'];

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', '**/coverage/**', '**/__fixtures__/**', 'tmp/**'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints, enforceBuildableLibDependency: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: pureDomainFiles,
    ignores: ['**/*.spec.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            { group: ['node:*', ...NODE_IO], message: 'The domain is pure: no Node I/O. Pass what you need in through the command.' },
            { group: [...FRAMEWORKS, ...STORE_CLIENTS], message: 'The domain is pure: no framework or store client.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['fetch', 'process', 'performance', 'crypto', 'setTimeout', 'setInterval', 'setImmediate', 'require', 'Buffer'].map((name) => ({
          name,
          message: 'The domain is pure: no I/O, clock, randomness or environment. Pass what you need in through the command.',
        })),
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'The domain takes `now` from the command.' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'The domain takes `now` from the command.' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Randomness comes in through the command.' },
        { selector: "CallExpression[callee.property.name='randomUUID']", message: 'Ids come in through the command.' },
      ],
    },
  },
  {
    // Tests may open the real store directly to set up or break things (e.g. hold its write lock).
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: depConstraints.map((c) => ({
            ...c,
            onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing'],
            bannedExternalImports: [],
          })),
          enforceBuildableLibDependency: false,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
