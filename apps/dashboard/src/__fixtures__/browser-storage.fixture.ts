// Lint fixture: the dashboard keeping credentials beyond its memory, however it reaches the storage.
// Excluded from `npm run lint`; tools/lint/module-boundaries.spec.ts expects lines 5-10 refused by
// no-restricted-syntax and line 11 by no-restricted-globals.
export function keep(secret: string): void {
  window.localStorage.setItem('apikey', secret);
  globalThis.sessionStorage.setItem('token', secret);
  window['indexedDB'].open(secret);
  document.cookie = `token=${secret}`;
  document['cookie'] = `apikey=${secret}`;
  const { caches } = window;
  localStorage.setItem('caches', String(caches));
}
