/** Exported with the function that takes it, and used in this file only: not reported. */
export interface Greeting {
  name: string;
}

export const used = (greeting: Greeting): string => `hello ${greeting.name}`;

/** Imported by nobody: knip must report it. */
export const nobodyImportsThis = 42;
