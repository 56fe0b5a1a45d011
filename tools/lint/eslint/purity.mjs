// The domain is pure: no framework, no client, no Node I/O, no clock and no randomness (those come in
// through commands); the notifier's engine takes time and randomness from what it is given.
import { FRAMEWORKS, NODE_IO, STORE_CLIENTS } from './packages.mjs';

const pureDomainFiles = ['libs/domain/**/*.ts', 'libs/contract/**/*.ts'];

export const purity = [
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
];
