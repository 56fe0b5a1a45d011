// The dashboard runs in the browser: no Node module, framework or store client; credentials stay in
// memory and the DOM is built from text.
import { FRAMEWORKS, NODE_IO, STORE_CLIENTS } from './packages.mjs';

// Where a page could keep credentials beyond its memory.
const BROWSER_STORAGE = ['localStorage', 'sessionStorage', 'indexedDB', 'caches', 'cookieStore'];
const STORAGE_MEMBER = `/^(${[...BROWSER_STORAGE, 'cookie'].join('|')})$/`;

export const dashboard = {
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
};
