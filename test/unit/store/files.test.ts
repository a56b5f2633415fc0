import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/errors.js';
import { parseRepositoryFile, slugify } from '../../../src/store/index.js';
import {
  artifactCommitMessage,
  checkedTitle,
  headingTitle,
  parseCommitMessage,
  renderArtifactFile,
  renderFolderFile,
} from '../../../src/store/layout/index.js';

const fm = {
  id: '0b5e7c1a-3d2f-4e6a-9b8c-1d2e3f4a5b6c',
  type: 'requirement' as const,
  parent: null,
  workspace: 'team-α',
  title: 'null',
  requirementType: 'BUSINESS_RULE' as const,
  created: '2024-05-06T07:08:09.010Z',
};

describe('repository files', () => {
  it.each([
    '',
    '# Title\n',
    '\n\nleading blank lines\n',
    '\r\nstarts with CRLF\r\n',
    '---\nlooks like frontmatter\n---\n',
    '---js\n{ evil: true }\n---\n',
    'no trailing newline',
    '# 日本語\n\n```\n---\n```\n',
  ])('round-trips the body %j exactly', (body) => {
    const file = parseRepositoryFile(renderArtifactFile(fm, body), 'x.md');
    expect(file).toEqual({ kind: 'artifact', frontmatter: fm, body });
  });

  it.each([
    [
      'CRLF line ends',
      '---\r\nid: {id}\r\ntype: page\r\nworkspace: w\r\ntitle: T\r\ncreated: c\r\n---\r\n\r\nbody\r\n',
    ],
    ['a closing line with more dashes', '---\nid: {id}\ntype: page\nworkspace: w\ntitle: T\ncreated: c\n-----\nbody\n'],
    ['no line break after the closing delimiter', '---\nid: {id}\ntype: page\nworkspace: w\ntitle: T\ncreated: c\n---'],
    [
      'a body that starts with blank lines and holds more delimiters',
      '---\nid: {id}\ntype: page\nworkspace: w\ntitle: T\ncreated: c\n---\n\n\n---\nnot: frontmatter\n---\n',
    ],
    [
      'a yaml language on the opening line',
      '---yaml\nid: {id}\ntype: page\nworkspace: w\ntitle: T\ncreated: c\n---\nbody\n',
    ],
    [
      'blanks after the opening delimiter',
      '---  \t\nid: {id}\ntype: page\nworkspace: w\ntitle: T\ncreated: c\n---\nbody\n',
    ],
    [
      'comments, quoting and a date',
      '---\n# written by hand\nid: "{id}"\ntype: page\nworkspace: \'w\'\ntitle: >-\n  Folded\n  title\ncreated: 2024-05-01T10:00:00Z\n---\nbody\n',
    ],
  ])('reads a hand-edited file (%s) as gray-matter reads it', (_, template) => {
    const content = template.replaceAll('{id}', fm.id);
    const file = parseRepositoryFile(content, 'x.md');
    const reference = matter(content);
    const data = reference.data as Record<string, unknown>;
    expect(file.kind === 'artifact' && file.body).toBe(reference.content);
    const created = data['created'] instanceof Date ? data['created'].toISOString() : data['created'];
    expect(file.frontmatter).toEqual({
      id: data['id'],
      type: data['type'],
      parent: null,
      workspace: data['workspace'],
      title: data['title'],
      created,
    });
  });

  it.each(['---\n---\nbody\n', '---\n# only a comment\n---\n', '----\nid: x\n---\n', '---\njust text\n---\n'])(
    'finds no fields where gray-matter finds none (%j)',
    (content) => {
      expect(Object.keys((matter(content).data as object) ?? {}).filter((key) => key === 'id')).toEqual([]);
      expect(() => parseRepositoryFile(content, 'x.md')).toThrow(/"id" is missing/);
    },
  );

  it('keeps titles that look like YAML values as text', () => {
    for (const title of ['null', 'true', '2024-01-01', '1e10', 'a: b', '"quoted" #hash', "it's"]) {
      const file = parseRepositoryFile(renderArtifactFile({ ...fm, title }, ''), 'x.md');
      expect(file.kind === 'artifact' && file.frontmatter.title).toBe(title);
    }
  });

  it('reads folder records', () => {
    const folder = {
      id: fm.id,
      type: 'folder' as const,
      name: 'Guides',
      parent: null,
      workspace: 'w',
      created: fm.created,
    };
    expect(parseRepositoryFile(renderFolderFile(folder), 'pages/guides/_folder.md')).toEqual({
      kind: 'folder',
      frontmatter: folder,
    });
  });

  it.each(['---js', '---javascript', '--- js', '---coffee', '---json'])(
    'refuses %s frontmatter without evaluating it',
    (opening) => {
      const text = `${opening}\n{ id: (globalThis.__unitPwned = "${fm.id}"), type: "page" }\n---\nbody\n`;
      expect(() => parseRepositoryFile(text, 'x.md')).toThrow(InvalidInputError);
      expect(() => parseRepositoryFile(text, 'x.md')).toThrow(/is refused: only YAML frontmatter is accepted/);
      expect((globalThis as { __unitPwned?: string }).__unitPwned).toBeUndefined();
    },
  );

  it('refuses files without valid frontmatter', () => {
    expect(() => parseRepositoryFile('# just markdown\n', 'a.md')).toThrow(/does not start with YAML frontmatter/);
    expect(() => parseRepositoryFile('---\nid: [unclosed\n---\n', 'a.md')).toThrow(/a.md: unreadable frontmatter/);
    expect(() =>
      parseRepositoryFile('---\nid: x\ntype: spaceship\nworkspace: w\ntitle: t\ncreated: c\n---\n', 'a.md'),
    ).toThrow(/unknown artifact type/);
    expect(() => parseRepositoryFile('---\ntype: page\n---\n', 'a.md')).toThrow(/"id" is missing/);
  });
});

describe('titles, slugs and messages', () => {
  it('takes the first level-one heading outside code fences', () => {
    expect(headingTitle('intro\n```\n# not this\n```\n## Sub\n#   Real title  ##\n# Second\n')).toBe('Real title');
    expect(headingTitle('no heading\n#hashtag\n')).toBeUndefined();
  });

  it('checks titles', () => {
    expect(checkedTitle('  Checkout  ')).toBe('Checkout');
    expect(() => checkedTitle('   ')).toThrow(/empty/);
    expect(() => checkedTitle('x'.repeat(201))).toThrow(/201 characters; the limit is 200/);
  });

  it('makes short ascii slugs', () => {
    expect(slugify('Crème brûlée: the  "best" one!')).toBe('creme-brulee-the-best-one');
    expect(slugify('日本語')).toBe('');
    expect(slugify('a'.repeat(49) + ' bcd')).toBe('a'.repeat(49));
    expect(slugify('x'.repeat(80))).toHaveLength(50);
  });

  it('writes and reads back commit messages with trailers', () => {
    const message = artifactCommitMessage({
      verb: 'revert',
      type: 'acceptance_criterion',
      id: fm.id,
      title: 'Pays\nwith card',
      client: 'cursor',
      sourceCommit: 'a'.repeat(40),
    });
    expect(message).toBe(
      `Revert acceptance criterion: Pays with card\n\nThis reverts commit ${'a'.repeat(40)}.\n\nArtifact-Id: ${fm.id}\nArtifact-Type: acceptance_criterion\nClient: cursor\n`,
    );
    const parsed = parseCommitMessage(message);
    expect(parsed.verb).toBe('revert');
    expect(Object.fromEntries(parsed.trailers)).toEqual({
      'Artifact-Id': fm.id,
      'Artifact-Type': 'acceptance_criterion',
      Client: 'cursor',
    });
  });
});
