// The import-cycle check of `npm run lint` (dependency-cruiser over the TypeScript sources of apps/,
// libs/ and tools/): modules on a cycle can only be read, tested and loaded together, and which of
// them runs first decides what the others see. Type-only imports count: a cycle through types is
// still two files that cannot be understood apart. tools/lint/import-cycles.spec.ts proves the rule
// on a fixture (the fixtures are excluded here, as ESLint ignores them).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: break it with an interface or a type in a module of its own.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|__fixtures__)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
  },
};
