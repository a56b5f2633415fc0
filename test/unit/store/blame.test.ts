import { describe, expect, it } from 'vitest';
import { parsePorcelainBlame } from '../../../src/store/git/index.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('parsePorcelainBlame', () => {
  it('attributes each line, taking commit details from their first appearance', () => {
    const output = [
      `${A} 1 1 2`,
      'author Ana Lima',
      'author-mail <ana@example.com>',
      'author-time 1700000000',
      'summary Create page: Notes',
      'filename pages/notes.md',
      '\t# Notes',
      `${A} 2 2`,
      '\t',
      `${B} 3 3 1`,
      'author Bo',
      'author-mail <bo@example.com>',
      'author-time 1700000100',
      'filename pages/notes.md',
      '\tA line\twith a tab',
      '',
    ].join('\n');
    expect(parsePorcelainBlame(output)).toEqual([
      {
        line: 1,
        text: '# Notes',
        commit: A,
        author: { name: 'Ana Lima', email: 'ana@example.com' },
        authoredAt: '2023-11-14T22:13:20.000Z',
      },
      {
        line: 2,
        text: '',
        commit: A,
        author: { name: 'Ana Lima', email: 'ana@example.com' },
        authoredAt: '2023-11-14T22:13:20.000Z',
      },
      {
        line: 3,
        text: 'A line\twith a tab',
        commit: B,
        author: { name: 'Bo', email: 'bo@example.com' },
        authoredAt: '2023-11-14T22:15:00.000Z',
      },
    ]);
  });
});
