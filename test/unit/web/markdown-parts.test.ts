import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMarkdownParts } from '../../../src/web/markdown.js';
import { Lru } from '../../../src/web/lru.js';
import { bigDocument } from '../../support/big-document.js';

const squeeze = (markup: string) => markup.replace(/\s+/g, ' ').trim();

describe('a long document rendered in parts', () => {
  it('reads as the whole rendering does, in parts of whole blocks of at least 16 KB of markdown', () => {
    const { text } = bigDocument();
    const parts = renderMarkdownParts(text);
    // A part ends after the block that reaches 16 KB: a long release list is one block.
    expect(parts.length).toBeGreaterThan(10);
    expect(squeeze(parts.join(''))).toBe(squeeze(renderMarkdown(text).value));
  });

  it('resolves reference links defined in another part, and sanitizes each part on its own', () => {
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of filler text, long enough to fill parts.`);
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
