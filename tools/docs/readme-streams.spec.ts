import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_SCHEMAS } from '@gw/application';

/** README's Architecture list of streams names every event type of the registry, and no other. */

describe("README's stream list", () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const from = readme.indexOf('\nStreams and the event types each holds');
  const to = readme.indexOf('\nEvents are past-tense', from);

  it('names each registered event type once, with its stream', () => {
    expect(from).toBeGreaterThan(0);
    // Event types are the CamelCase words in parentheses after a stream's name.
    const listed = [...readme.slice(from, to).matchAll(/`[a-z-]+(?:-\{[^`]*)?`\s*\(([^)]*)\)/g)].flatMap((match) =>
      [...match[1].matchAll(/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b/g)].map((word) => word[0]),
    );
    expect([...listed].sort()).toEqual([...EVENT_SCHEMAS.keys()].sort());
  });
});
