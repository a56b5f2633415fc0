import { expect, it } from 'vitest';
import { RenderedDocuments } from '../../../src/web/rendered-documents.js';

const longDocument = (tag: string) =>
  Array.from({ length: 2_000 }, (_, i) => `## ${tag} ${i}\n\nA paragraph of ${tag}, number ${i}.\n`).join('\n');

it('renders versions ahead of their readers two at a time, and leaves the rest to the request that reads them', async () => {
  const rendered = new RenderedDocuments();
  const key = (version: string) => ({ orgId: 'o', artifactId: 'a', version, variant: 'page' });
  const texts = ['one', 'two', 'three'].map(longDocument);
  texts.forEach((text, i) => rendered.prepare(key(String(i)), text));
  const [first, , third] = await Promise.all(texts.map((text, i) => rendered.html(key(String(i)), text)));
  expect(first!.from).toBe('waited');
  expect(third!.from).toBe('rendered');
  expect(third!.markup.toString()).toContain('A paragraph of three, number 1999.');
  expect((await rendered.html(key('2'), texts[2]!)).from).toBe('cached');
});
