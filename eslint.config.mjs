// Lint, including the architecture: Nx project tags decide which project may import which, and
// which packages each kind may use. The domain is pure: no framework, no client, no Node I/O, no
// clock and no randomness (those come in through commands).
import { builtinModules } from 'node:module';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const FRAMEWORKS = ['@nestjs/*', 'express', 'class-validator', 'class-transformer', 'rxjs', 'reflect-metadata'];
const STORE_CLIENTS = ['@eventstore/*', 'better-sqlite3'];
// Every Node built-in module (node:sqlite, node:test and whatever comes next included), and the
// packages that reach the network.
const NODE_IO = [
  ...builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `${m}/*`]),
  'undici',
  'node-fetch',
  'axios',
];

/** Which projects each kind may depend on, and which packages it may not import. */
const depConstraints = [
  {
    sourceTag: 'type:contract',
    onlyDependOnLibsWithTags: ['type:contract'],
    bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS],
  },
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
  // NestJS glue shared by the apps: framework allowed, stores not.
  {
    sourceTag: 'type:nest',
    onlyDependOnLibsWithTags: ['type:config', 'type:contract', 'type:util'],
    bannedExternalImports: STORE_CLIENTS,
  },
  {
    sourceTag: 'type:util',
    onlyDependOnLibsWithTags: ['type:util', 'type:contract'],
    bannedExternalImports: [...FRAMEWORKS, ...STORE_CLIENTS],
  },
  // Test support starts the built apps and may open the store directly; only tests use it.
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['*'], bannedExternalImports: [] },
  // Apps reach stores only through the event-store port and the projections lib.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'], bannedExternalImports: STORE_CLIENTS },
  // The dashboard runs in the browser: the contract's error table, and nothing of Node or the server.
  {
    sourceTag: 'type:web',
    onlyDependOnLibsWithTags: ['type:contract'],
    bannedExternalImports: [...NODE_IO, ...FRAMEWORKS, ...STORE_CLIENTS],
  },
];

const pureDomainFiles = ['libs/domain/**/*.ts', 'libs/contract/**/*.ts'];
// Where a page could keep credentials beyond its memory.
const BROWSER_STORAGE = ['localStorage', 'sessionStorage', 'indexedDB', 'caches', 'cookieStore'];
const STORAGE_MEMBER = `/^(${[...BROWSER_STORAGE, 'cookie'].join('|')})$/`;
const testFiles = ['**/*.spec.ts', '**/test/**/*.ts', 'libs/testing/**/*.ts'];

// The event-store adapters' entry points, and `open`, which picks one from configuration.
const STORE_ADAPTER_ENTRIES = '^@gw/event-store/(sqlite|esdb|memory|open)$';
// An event-store lib file reaching into an adapter's folder.
const STORE_ADAPTER_FOLDERS = '^\\.{1,2}/(sqlite|esdb|memory|open)(/|$)';

/** Refuses imports in `files` (tests aside) with the core rule; the blocks that use it do not overlap. */
const refuse = (files, patterns, ignores = []) => ({
  files,
  ignores: [...testFiles, ...ignores],
  rules: { 'no-restricted-imports': ['error', { paths: [], patterns }] },
});
const onlyInAdapter = (client, adapter) => ({
  group: [client],
  message: `Only the ${adapter} adapter (libs/event-store/src/${adapter}) imports ${client}.`,
});

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
            {
              group: ['node:*', ...NODE_IO],
              message: 'The domain is pure: no Node I/O. Pass what you need in through the command.',
            },
            { group: [...FRAMEWORKS, ...STORE_CLIENTS], message: 'The domain is pure: no framework or store client.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'fetch',
          'process',
          'performance',
          'crypto',
          'setTimeout',
          'setInterval',
          'setImmediate',
          'require',
          'Buffer',
        ].map((name) => ({
          name,
          message:
            'The domain is pure: no I/O, clock, randomness or environment. Pass what you need in through the command.',
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'The domain takes `now` from the command.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'The domain takes `now` from the command.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'Randomness comes in through the command.',
        },
        { selector: "CallExpression[callee.property.name='randomUUID']", message: 'Ids come in through the command.' },
      ],
    },
  },
  {
    // Code sees the event-store port; which adapter runs is chosen where a process is put together:
    // an app's main.ts, or a tool. The read models' SQLite files borrow the embedded adapter's file
    // handling (below). The typescript-eslint rule, not the core one, so that this adds to the domain's
    // restrictions rather than replacing them.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['apps/*/src/main.ts', ...testFiles, 'libs/event-store/**', 'libs/projections/src/sqlite/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            {
              regex: STORE_ADAPTER_ENTRIES,
              caseSensitive: true,
              message: 'Use the port (@gw/event-store); an adapter is chosen in main.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/projections/src/sqlite/**/*.ts'],
    ignores: testFiles,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            {
              regex: '^@gw/event-store/(esdb|memory|open)$',
              caseSensitive: true,
              message: 'The read models use the port, and only the SQLite file handling of @gw/event-store/sqlite.',
            },
          ],
        },
      ],
    },
  },
  // Inside the store libs, each client stays in its adapter's folder, and the port's files import no
  // adapter, so that `@gw/event-store` loads neither client.
  refuse(
    ['libs/event-store/src/*.ts', 'libs/event-store/src/__fixtures__/*.ts'],
    [
      { group: STORE_CLIENTS, message: 'The port imports no store client; adapters do.' },
      {
        regex: STORE_ADAPTER_FOLDERS,
        caseSensitive: true,
        message: 'The port imports no adapter: each has its own entry point.',
      },
    ],
  ),
  refuse(
    ['libs/event-store/src/**/*.ts'],
    [{ group: STORE_CLIENTS, message: 'Only the sqlite and esdb adapters import a store client.' }],
    [
      'libs/event-store/src/*.ts',
      'libs/event-store/src/__fixtures__/*.ts',
      'libs/event-store/src/sqlite/**',
      'libs/event-store/src/esdb/**',
    ],
  ),
  {
    // `open` names the EventStoreDB adapter only as a type and requires it when chosen: loading its
    // client costs every process on the embedded store about 150 ms at start.
    files: ['libs/event-store/src/open/**/*.ts'],
    ignores: testFiles,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            {
              regex: '/esdb(/|$)',
              caseSensitive: true,
              allowTypeImports: true,
              message: 'Require the EventStoreDB adapter lazily, when chosen.',
            },
          ],
        },
      ],
    },
  },
  {
    // The dashboard keeps credentials in memory only (docs/api.md section 10) and builds its DOM from
    // text, never from markup.
    files: ['apps/dashboard/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [],
          patterns: [
            {
              group: ['node:*', ...NODE_IO, ...FRAMEWORKS, ...STORE_CLIENTS],
              message: 'The dashboard runs in the browser: no Node module, framework or store client.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...BROWSER_STORAGE.map((name) => ({ name, message: 'Credentials stay in memory: no browser storage.' })),
      ],
      'no-restricted-syntax': [
        'error',
        // The same storage reached as a member (window.localStorage, globalThis['sessionStorage'],
        // document.cookie) or taken out of one (const { localStorage } = window).
        {
          selector: `MemberExpression[computed=false][property.name=${STORAGE_MEMBER}]`,
          message: 'Credentials stay in memory: no browser storage or cookies.',
        },
        {
          selector: `MemberExpression[computed=true][property.value=${STORAGE_MEMBER}]`,
          message: 'Credentials stay in memory: no browser storage or cookies.',
        },
        {
          selector: `ObjectPattern > Property[key.name=${STORAGE_MEMBER}]`,
          message: 'Credentials stay in memory: no browser storage or cookies.',
        },
        {
          selector: 'MemberExpression[property.name=/^(innerHTML|outerHTML)$/]',
          message: 'Build elements with h(); text goes in as text.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(pushState|replaceState|insertAdjacentHTML)$/]',
          message: 'Nothing goes into the page URL or in as markup.',
        },
      ],
    },
  },
  {
    // The notifier's engine takes time and randomness from what it is given (the Clock, the jitter
    // source), so that its unit specs drive it with a fake clock.
    files: ['apps/notifier/src/engine/**/*.ts'],
    ignores: ['apps/notifier/src/engine/clock.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'The notifier engine takes the time from its Clock.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'The notifier engine takes the time from its Clock.',
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message: 'The notifier engine takes randomness from its settings.',
        },
      ],
    },
  },
  refuse(['libs/event-store/src/sqlite/**/*.ts'], [onlyInAdapter('@eventstore/*', 'esdb')]),
  refuse(['libs/event-store/src/esdb/**/*.ts'], [onlyInAdapter('better-sqlite3', 'sqlite')]),
  refuse(
    ['libs/projections/src/**/*.ts'],
    [
      {
        group: ['better-sqlite3'],
        message: 'Read models and their queries know no storage; the SQLite implementation lives in sqlite/.',
      },
    ],
    ['libs/projections/src/sqlite/**'],
  ),
  {
    // Tests may open the real store directly to set up or break things (e.g. hold its write lock).
    files: testFiles,
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
  // Layout is Prettier's (npm run lint:format): no lint rule may disagree with it.
  prettier,
];
