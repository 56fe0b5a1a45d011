import { lintFixture, lintFixtures } from './support/lint-fixture';

const FIXTURES = 'tools/lint/__fixtures__/file-length';
const tooLong = (file: string) =>
  lintFixture(`${FIXTURES}/${file}`)
    .filter((m) => m.ruleId === 'max-lines')
    .map((m) => m.message);

describe('the length of a file is checked by lint', () => {
  beforeAll(() => lintFixtures([`${FIXTURES}/over-limit.fixture.ts`, `${FIXTURES}/at-limit.fixture.ts`]), 60_000);

  it('refuses a TypeScript file of 301 lines, though most of them are comments and blank lines', () => {
    expect(tooLong('over-limit.fixture.ts')).toEqual(['File has too many lines (301). Maximum allowed is 300.']);
  });

  it('lets a file of exactly 300 lines through', () => {
    expect(tooLong('at-limit.fixture.ts')).toEqual([]);
  });

  it('refuses scripts over the limit too, ES modules and CommonJS alike', () => {
    expect(tooLong('over-limit.fixture.mjs')).toHaveLength(1);
    expect(tooLong('over-limit.fixture.js')).toHaveLength(1);
  });
});
