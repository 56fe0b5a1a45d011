// Lint fixture (not built, not run): a formatting slip Prettier refuses (double quotes, no semicolon,
// a line past 120 characters).
export const greeting = "hello"
export function sum(values: readonly number[]): number { return values.reduce((total, value) => total + value, 0) + values.length * 0 }
