// Lint fixture (not built, not run): the same code as Prettier lays it out.
export const greeting = 'hello';
export function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0) + values.length * 0;
}
