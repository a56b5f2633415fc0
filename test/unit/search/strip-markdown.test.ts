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
    ['html comments, across lines', 'A <!-- YAML\nadded: v2.3.0\n--> utility<!--x--> class', 'A utility class'],
    ['an unclosed comment hides the rest', 'seen <!-- never closed\nhidden', 'seen'],
    [
      'tag names and attributes, across lines',
      '<a id="x" href="https://e.com/p">anchor</a> <div\n  class="note">note</div> <img src="s.png" alt="alt">',
      'anchor note',
    ],
    ['autolinks', 'mail <ana@example.com> or see <https://example.com/docs>.', 'mail or see .'],
    [
      'link targets with titles and parentheses',
      '[text](https://w.org/a_(b) "Title") and [here](<my file.md>) and ![logo](l.png \'alt title\')',
      'text and here and logo',
    ],
    [
      'reference definitions',
      'Use [`Buffer`][] now.\n\n[`Buffer`]: buffer.md#class-buffer\n[x]: <y.md> "t"',
      'Use Buffer now.',
    ],
    ['entities', 'a &amp; b &lt;T&gt; &#233;t&#xE9; &copy;', 'a & b <T> été'],
    ['backslash escapes', String.raw`\*literal\* and 1\. not a list`, 'literal and 1. not a list'],
    ['frontmatter', '---\ntitle: npm-install\nsection: 1\n---\nInstall a package', 'Install a package'],
    ['a rule is not frontmatter inside the text', 'above\n---\nbelow', 'above below'],
    ['setext underlines', 'Title\n=====\ntext', 'Title text'],
    [
      'code keeps what markup passes would take',
      'Call `fs.readFile(path[, options])` with `<T>` or `a_b*c`.\n```html\n<!-- kept --> <b>bold</b>\n```\nafter <!-- gone -->',
      'Call fs.readFile(path[, options]) with <T> or a_b*c. <!-- kept --> <b>bold</b> after',
    ],
    ['an unclosed fence runs to the end', 'intro\n```\n<!-- code -->', 'intro <!-- code -->'],
    ['a code span never crosses a blank line', 'it`s\n\n<!-- gone --> `x`', 'it`s x'],
  ])('%s', (_name, markdown, plain) => {
    expect(stripMarkdown(markdown)).toBe(plain);
  });
});

describe('stripMarkdown on a Node.js API page', () => {
  it('leaves neither markup nor link targets, and keeps code', () => {
    const page = [
      '# File system',
      '',
      '<!--introduced_in=v0.10.0-->',
      '',
      '> Stability: 2 - Stable',
      '',
      '<!-- source_link=lib/fs.js -->',
      '',
      '## `fs.access(path[, mode], callback)`',
      '',
      '<!-- YAML',
      'added: v0.11.15',
      'changes:',
      '  - version: v6.3.0',
      '    pr-url: https://github.com/nodejs/node/pull/6534',
      '-->',
      '',
      '* `path` {string|Buffer|URL}',
      '',
      "Tests a user's permissions (see [`fs.constants`][]).",
      '',
      '[`fs.constants`]: #fsconstants',
    ].join('\n');
    const plain = stripMarkdown(page);
    expect(plain).toBe(
      "File system Stability: 2 - Stable fs.access(path[, mode], callback) path {string Buffer URL} Tests a user's permissions (see fs.constants).",
    );
  });
});
