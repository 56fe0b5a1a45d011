// Lint, including the architecture (tools/lint/eslint/layering.mjs), the pure domain and the notifier
// engine's clock (purity.mjs), where the store clients may be used (store-access.mjs), the browser
// page's rules (dashboard.mjs) and the length of a file (file-length.mjs). Each rule is proven on
// fixtures by a spec in tools/lint.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { dashboard } from './tools/lint/eslint/dashboard.mjs';
import { fileLength } from './tools/lint/eslint/file-length.mjs';
import { layering } from './tools/lint/eslint/layering.mjs';
import { testFiles } from './tools/lint/eslint/packages.mjs';
import { purity } from './tools/lint/eslint/purity.mjs';
import { storeAccess } from './tools/lint/eslint/store-access.mjs';

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.nx/**', '**/coverage/**', '**/__fixtures__/**', 'tmp/**'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  ...layering,
  ...purity,
  ...storeAccess,
  dashboard,
  { files: testFiles, rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  fileLength,
  // Layout is Prettier's (npm run lint:format): no lint rule may disagree with it.
  prettier,
];
