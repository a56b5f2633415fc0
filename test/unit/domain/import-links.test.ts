import { describe, expect, it } from 'vitest';
import { withNames, droppedFields, fieldNames } from '../../../src/domain/import-fields.js';
import { rewriteLinks, type LinkTargets } from '../../../src/domain/import-links.js';

const ids: Record<string, string> = { 'api/util.md': 'U', 'api/fs.md': 'F', 'guide/intro.md': 'I', 'README.md': 'R' };
const targets: LinkTargets = {
  urlOf: (path) => (ids[path] ? `https://x/o/O/a/${ids[path]}` : undefined),
  fileNamed: (name) => ({ util: 'api/util.md', 'file system': 'api/fs.md' })[name.toLowerCase()],
};
const rewrite = (body: string, from = 'api/fs.md') => rewriteLinks(from, body, targets);

describe('rewriteLinks', () => {
  it('makes relative, parent-relative, extensionless and anchored links into artifact links', () => {
    const out = rewrite(
      'See [u](util.md), [g](../guide/intro.md#start), [d](./util), [t](<util.md> "title") and [r](/README.md).',
    );
    expect(out.body).toBe(
      'See [u](https://x/o/O/a/U), [g](https://x/o/O/a/I#start), [d](https://x/o/O/a/U), [t](<https://x/o/O/a/U> "title") and [r](https://x/o/O/a/R).',
    );
    expect(out.rewritten).toBe(5);
    expect(out.unresolved).toEqual([]);
  });

  it('rewrites reference definitions and wiki links, keeping labels and headings', () => {
    const out = rewrite('[ref]: util.md#x\n\n[[Util]] and [[file system|the fs]] and [[util#Some Heading]]\n');
    expect(out.body).toBe(
      '[ref]: https://x/o/O/a/U#x\n\n[Util](https://x/o/O/a/U) and [the fs](https://x/o/O/a/F) and [util](https://x/o/O/a/U#some-heading)\n',
    );
  });

  it('leaves web links, anchors, code, assets and outside files as written, and lists the last two', () => {
    const body =
      '[w](https://nodejs.org/api/util.html) [a](#here) `[c](util.md)`\n\n```\n[f](util.md)\n```\n\n![img](../img/x.png) [p](spec.pdf) [o](../../outside.md) [m](missing.md) [[Nobody]]\n';
    const out = rewrite(body);
    expect(out.body).toBe(body);
    expect(out.unresolved).toEqual([
      { target: '../img/x.png', why: 'asset' },
      { target: 'spec.pdf', why: 'asset' },
      { target: '../../outside.md', why: 'outside the import' },
      { target: 'missing.md', why: 'outside the import' },
      { target: '[[Nobody]]', why: 'no such title or file' },
    ]);
  });
});

describe('frontmatter kept and dropped', () => {
  it('keeps aliases and tags as lines under the heading, and names every other key', () => {
    const fields = { title: 'T', aliases: ['Alpha', 'Beta'], tags: 'one, #two', permalink: 'p', date: 'd' };
    expect(fieldNames(fields, 'tags')).toEqual(['one', 'two']);
    expect(withNames('# T\nBody\n', fieldNames(fields, 'aliases'), [])).toBe(
      '# T\n\n**Aliases:** Alpha, Beta\n\nBody\n',
    );
    expect(withNames('Body\n', [], ['x'])).toBe('**Tags:** x\n\nBody\n');
    expect(droppedFields(fields)).toEqual(['permalink', 'date']);
  });
});
