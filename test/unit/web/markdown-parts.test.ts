import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownParts, renderPart, splitMarkdown } from '../../../src/web/markdown.js';
import { Lru } from '../../../src/web/lru.js';
import { PartRenderer } from '../../../src/web/part-renderer.js';
import { bigDocument } from '../../support/big-document.js';

const squeeze = (markup: string) => markup.replace(/\s+/g, ' ').trim();

describe('a long document rendered in parts', () => {
  it('reads as the whole rendering does, in parts of whole blocks of at least 16 KB of markdown', () => {
    const { text } = bigDocument();
    const parts = renderMarkdownParts(text);
    // A long release list is one block: a part may be much longer than 16 KB.
    expect(parts.length).toBeGreaterThan(10);
    expect(squeeze(parts.join(''))).toBe(squeeze(renderMarkdown(text).value));
  });

  it('cuts the source at headings once a part holds 16 KB, so that an edit changes only the parts around it', () => {
    const { text } = bigDocument();
    const { sources } = splitMarkdown(text);
    expect(sources.join('')).toBe(text.replace(/\r\n?/g, '\n'));
    // Each part after the first starts at a heading, unless the one before grew to 64 KB without meeting one.
    sources.slice(1).forEach((source, i) => {
      expect(sources[i]!.length).toBeGreaterThanOrEqual(16 * 1024);
      if (!/^#{1,6} /.test(source)) expect(sources[i]!.length).toBeGreaterThanOrEqual(64 * 1024);
    });
    const middle = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
    const edited = splitMarkdown(`${text.slice(0, middle)}An added line.\n${text.slice(middle)}`).sources;
    const changed = edited.filter((source) => !sources.includes(source));
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThanOrEqual(2);
  });

  it('renders a new version of a long document by rendering again only the parts its change touched', () => {
    const { text } = bigDocument();
    const rendered: string[] = [];
    const renderer = new PartRenderer({
      render: (source, links) => {
        rendered.push(source);
        return renderPart(source, links);
      },
    });
    const first = renderer.render(text);
    expect(rendered).toHaveLength(first.length);
    rendered.length = 0;
    const saved = `${text.trimEnd()}\n\nSaved once more.\n`;
    const second = renderer.render(saved);
    expect(rendered).toHaveLength(1);
    expect(second.join('')).toBe(renderMarkdownParts(saved).join(''));
    expect(second.slice(0, -1)).toEqual(first.slice(0, -1));
  });

  it('renders every part again when the link definitions change: a reference in any part may resolve otherwise', () => {
    const markdown = [
      '# One',
      'See [the spec][spec].',
      '## Two',
      'x'.repeat(20_000),
      '## Three',
      '[spec]: https://example.com/a',
    ].join('\n\n');
    const renderer = new PartRenderer();
    expect(renderer.render(markdown)[0]).toContain('href="https://example.com/a"');
    const moved = renderer.render(markdown.replace('https://example.com/a', 'https://example.com/b'));
    expect(moved[0]).toContain('href="https://example.com/b"');
  });

  it('resolves reference links defined in another part, and sanitizes each part on its own', () => {
    const filler = Array.from({ length: 400 }, (_, i) =>
      i % 40 === 0 ? `## Section ${i / 40}` : `Paragraph ${i} of filler text, long enough to fill parts.`,
    );
    const markdown = [
      'See [the spec][spec].',
      '<div onclick="alert(1)">',
      ...filler,
      '</div><script>alert(2)</script>',
      '[spec]: https://example.com/spec',
    ].join('\n\n');
    const parts = renderMarkdownParts(markdown);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]).toContain('<a href="https://example.com/spec" rel="nofollow noopener noreferrer">the spec</a>');
    expect(parts.join('')).not.toMatch(/onclick|<script|alert\(2\)/);
  });
});

describe('Lru', () => {
  it('drops the least recently used past its budget, and keeps nothing over a quarter of it', () => {
    const lru = new Lru<string>(12, (value) => value.length);
    lru.set('a', 'aaa');
    lru.set('b', 'bbb');
    lru.set('c', 'ccc');
    expect(lru.get('a')).toBe('aaa');
    lru.set('d', 'ddd');
    lru.set('e', 'eee');
    expect(['a', 'b', 'c', 'd', 'e'].filter((key) => lru.has(key))).toEqual(['a', 'c', 'd', 'e']);
    lru.set('big', 'x'.repeat(4));
    expect(lru.has('big')).toBe(false);
  });
});
