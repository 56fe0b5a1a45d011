import { join } from 'node:path';
import { loadConfig } from './config';
import { configErrorOf, useTempCwd } from './__fixtures__/config-spec-support';

describe('loadConfig: PACKAGES_FILE', () => {
  const temp = useTempCwd();

  it('loads a custom valid catalogue given as an absolute path', () => {
    const file = temp.writeCatalogue(
      'packages.json',
      JSON.stringify([
        { packageid: 'weekly', durationDays: 7 },
        { packageid: 'pro.2y', durationDays: 730 },
      ]),
    );
    const config = loadConfig({ PACKAGES_FILE: file }, temp.cwd);
    expect(config.packages.file).toBe(file);
    expect(config.packages.catalogue).toEqual([
      { packageid: 'weekly', durationDays: 7 },
      { packageid: 'pro.2y', durationDays: 730 },
    ]);
  });

  it('resolves a relative path against temp.cwd', () => {
    const file = temp.writeCatalogue('mine.json', JSON.stringify([{ packageid: 'day', durationDays: 1 }]));
    const config = loadConfig({ PACKAGES_FILE: 'mine.json' }, temp.cwd);
    expect(config.packages.file).toBe(file);
    expect(config.packages.catalogue).toEqual([{ packageid: 'day', durationDays: 1 }]);
  });

  it('reports a missing file naming PACKAGES_FILE', () => {
    const missing = join(temp.cwd, 'nope.json');
    const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: missing }, temp.cwd));
    expect(error.problems).toEqual([`PACKAGES_FILE: ${missing} does not exist`]);
    expect(error.message).toContain('PACKAGES_FILE');
  });

  it('reports invalid JSON naming PACKAGES_FILE', () => {
    const file = temp.writeCatalogue('broken.json', '[{ "packageid": "trial", ');
    const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, temp.cwd));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatch(/^PACKAGES_FILE: .*not valid JSON/);
    expect(error.problems[0]).toContain(file);
  });

  it('reports a duplicate packageid naming PACKAGES_FILE', () => {
    const file = temp.writeCatalogue(
      'dupes.json',
      JSON.stringify([
        { packageid: 'trial', durationDays: 3 },
        { packageid: 'trial', durationDays: 5 },
      ]),
    );
    const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, temp.cwd));
    expect(error.problems).toEqual([expect.stringMatching(/^PACKAGES_FILE: .*"trial" appears twice/)]);
    expect(error.message).toContain('PACKAGES_FILE');
  });

  it('reports an empty catalogue naming PACKAGES_FILE', () => {
    const file = temp.writeCatalogue('empty.json', '[]');
    const error = configErrorOf(() => loadConfig({ PACKAGES_FILE: file }, temp.cwd));
    expect(error.problems).toEqual([expect.stringMatching(/^PACKAGES_FILE: /)]);
  });

  it('reports a catalogue problem together with other bad variables', () => {
    const error = configErrorOf(() =>
      loadConfig({ PACKAGES_FILE: join(temp.cwd, 'missing.json'), API_PORT: 'abc' }, temp.cwd),
    );
    expect(error.problems).toHaveLength(2);
    expect(error.problems.some((p) => p.startsWith('PACKAGES_FILE:'))).toBe(true);
    expect(error.problems.some((p) => p.startsWith('API_PORT:'))).toBe(true);
  });
});
