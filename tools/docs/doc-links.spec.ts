import { join } from 'node:path';
import { brokenLinks, documentationFiles, headingAnchors } from './doc-links';

describe('links of the documentation', () => {
  const root = join(__dirname, '../..');

  it("covers the README, docs/api.md and the benchmarks' README", () => {
    expect(documentationFiles(root)).toEqual(
      expect.arrayContaining(['README.md', join('docs', 'api.md'), join('bench', 'README.md')]),
    );
  });

  it('resolve to a file in the repository and, with #, to one of its headings', () => {
    expect(documentationFiles(root).flatMap((file) => brokenLinks(root, file))).toEqual([]);
  });

  it('names headings as GitHub does', () => {
    const anchors = headingAnchors(
      '## 3. Error reference\n### 4.1 newInstance\n```\n# not a heading\n```\n## Using the API\n## Using the API\n### 4.4 `webhook` (POST)\n',
    );
    expect([...anchors]).toEqual([
      '3-error-reference',
      '41-newinstance',
      'using-the-api',
      'using-the-api-1',
      '44-webhook-post',
    ]);
  });
});
