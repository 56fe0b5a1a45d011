// The architecture: Nx project tags decide which project may import which, and which packages each
// kind may use (tools/lint/module-boundaries.spec.ts proves it on fixtures).
import { FRAMEWORKS, NODE_IO, STORE_CLIENTS, testFiles } from './packages.mjs';

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

export const layering = [
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints, enforceBuildableLibDependency: false }],
    },
  },
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
    },
  },
];
