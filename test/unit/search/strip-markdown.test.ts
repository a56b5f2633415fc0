import { describe, expect, it } from 'vitest';
import { stripMarkdown } from '../../../src/search/strip-markdown.js';

describe('stripMarkdown', () => {
  // One case per rewrite: each is skipped when its marker is absent, so each must still apply when present.
  it.each([
    ['code fences', 'Intro\n```ts\nconst a = 1;\n```\nafter', 'Intro const a = 1; after'],
    ['tilde fences', 'Intro\n~~~\nx\n~~~\nafter', 'Intro x after'],
    ['html tags', 'a <b>bold</b> and <br/> c', 'a bold and c'],
    [
      'images, links and reference links',
      'see ![a chart](img.png) and [the docs](https://x.y/z) and [ref text][1]',
      'see a chart and the docs and ref text',
    ],
    ['headings and quotes', '## Heading\n> quoted line\n>> nested', 'Heading quoted line > nested'],
    [
      'list markers and task boxes',
      '- item one\n* item two\n+ item three\n1. first\n2) second\n- [x] done\n- [ ] open',
      'item one item two item three first second done open',
    ],
    ['rules', 'above\n---\n***\n___\nbelow', 'above below'],
    ['tables', '| Name | Value |\n| --- | :---: |\n| a | b |', 'Name Value a b'],
    ['inline code', 'use `npm run` and ``code``', 'use npm run and code'],
    ['emphasis, keeping snake_case', '**bold** _em_ ~~gone~~ snake_case_word 2*3', 'bold em gone snake_case_word 2*3'],
    ['runs of any white space', 'tabs\tand\u00a0nbsp  and\n\nlines  ', 'tabs and nbsp and lines'],
    ['plain prose unchanged', 'The shopper can pay.', 'The shopper can pay.'],
  ])('%s', (_name, markdown, plain) => {
    expect(stripMarkdown(markdown)).toBe(plain);
  });
});
