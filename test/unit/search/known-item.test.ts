import { describe, expect, it } from 'vitest';
import { aliasesLine } from '../../../src/artifacts/index.js';
import { OrgSearchIndex, type IndexedDocument, type SearchHit } from '../../../src/search/index.js';

const WORKSPACE = 'ws';
const UPDATED_AT = '2026-01-01T00:00:00.000Z';

const page = (id: string, title: string, body: string, workspaceId = WORKSPACE): IndexedDocument => ({
  id,
  type: 'page',
  workspaceId,
  title,
  body: `# ${title}\n\n${body}\n`,
  updatedAt: UPDATED_AT,
});

/** Longer documents that use the words of the titles below far more often than the pages named by them. */
const repeat = (text: string, times: number): string => Array.from({ length: times }, () => text).join(' ');
const DISTRACTORS = [
  page('os', 'OS', repeat('The operating system exposes file and system information.', 12)),
  page('wasi', 'WASI', repeat('WASI gives the file system of the system interface.', 12)),
  page('udp', 'UDP/datagram sockets', repeat('A system call sends the file descriptor over the system socket.', 12)),
  page('changelog-1', 'Node.js 20 changelog', repeat('worker threads: fix worker thread termination.', 20)),
  page('changelog-2', 'Node.js 18 changelog', repeat('worker threads: worker threads now share memory.', 20)),
  page('changelog-3', 'Node.js 16 changelog', repeat('worker: worker threads and threads of workers.', 20)),
  page('install-guide', 'Installing packages', repeat('npm install installs a package; npm install -g globally.', 15)),
  page('dispatcher-pool', 'Pool', repeat('A pool of Dispatcher instances; each Dispatcher dispatches.', 15)),
  page('dispatcher-agent', 'Agent', repeat('Agent dispatches through a Dispatcher per origin; Dispatcher.', 15)),
  ...Array.from({ length: 30 }, (_, n) => page(`filler-${n}`, `Note ${n}`, 'Warehouse shelving and pallet layout.')),
];
const NAMED = [
  page(
    'fs',
    'File system',
    `${repeat('Read and write files with callbacks, promises or synchronously.', 60)} The file system.`,
  ),
  page('worker-threads', 'Worker threads', 'The node:worker_threads module runs JavaScript in parallel.'),
  page('dispatcher', 'Dispatcher', 'Dispatcher is the core API used to dispatch requests.'),
  page('npm-install', 'npm-install', 'Install a package and any packages that it depends on.'),
  page('cjs', 'Modules: CommonJS modules', 'CommonJS modules are the original way to package code.'),
];

const build = (docs: readonly IndexedDocument[]): OrgSearchIndex => {
  const index = new OrgSearchIndex();
  for (const doc of docs) index.upsert(doc);
  return index;
};
const ranked = (index: OrgSearchIndex, query: string, workspaces = [WORKSPACE]): SearchHit[] =>
  index.search({ query, workspaceIds: new Set(workspaces), limit: 10 }).hits;
const first = (index: OrgSearchIndex, query: string): string | undefined => ranked(index, query)[0]?.id;

describe('known-item queries: a query that is a title ranks that document first', () => {
  const index = build([...DISTRACTORS, ...NAMED]);

  it.each([
    ['as written', 'File system', 'fs'],
    ['as written', 'Worker threads', 'worker-threads'],
    ['as written', 'Dispatcher', 'dispatcher'],
    ['as written', 'npm-install', 'npm-install'],
    ['as written', 'Modules: CommonJS modules', 'cjs'],
    ['in any case', 'FILE SYSTEM', 'fs'],
    ['in any case', 'dispatcher', 'dispatcher'],
    ['hyphens as spaces', 'npm install', 'npm-install'],
    ['punctuation as spaces', 'modules commonjs modules', 'cjs'],
    ['singular for plural', 'worker thread', 'worker-threads'],
    ['plural for singular', 'file systems', 'fs'],
    ['accents folded', 'Dispätcher', 'dispatcher'],
  ])('%s: "%s"', (_how, query, id) => {
    expect(first(index, query)).toBe(id);
  });

  it('ranks by BM25F without a title match: a title that only contains the query is not named by it', () => {
    // "threads" alone names no title; the changelogs that say it most rank above the short page.
    expect(first(index, 'threads')).not.toBe('worker-threads');
    expect(ranked(index, 'threads').map((hit) => hit.id)).toContain('worker-threads');
  });

  it('finds the named document even when its impact would leave it out of the candidates', () => {
    const crowded = build([
      ...Array.from({ length: 60 }, (_, n) => page(`mention-${n}`, `Mention ${n}`, 'file system file system')),
      page('fs', 'File system', repeat('Callbacks, promises and streams over descriptors and paths.', 400)),
    ]);
    expect(first(crowded, 'file system')).toBe('fs');
  });

  it('keeps scores in (0, 1], the named document clearly first', () => {
    const hits = ranked(index, 'Worker threads');
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
  });

  it('never shows a named document of a workspace the caller cannot read', () => {
    const hidden = build([...DISTRACTORS, page('secret', 'Worker threads', 'Internal notes.', 'ws-internal')]);
    expect(ranked(hidden, 'Worker threads').map((hit) => hit.id)).not.toContain('secret');
    expect(first(hidden, 'worker threads')).not.toBe('secret');
  });

  it('follows renames and removals, and survives a snapshot', async () => {
    const changing = build([...DISTRACTORS, ...NAMED]);
    changing.upsert(page('dispatcher', 'Dispatcher API', 'Dispatcher is the core API used to dispatch requests.'));
    changing.upsert(page('dispatcher-2', 'Dispatcher', 'The new page.'));
    expect(first(changing, 'dispatcher')).toBe('dispatcher-2');
    changing.remove('dispatcher-2');
    expect(first(changing, 'Dispatcher API')).toBe('dispatcher');
    const restored = OrgSearchIndex.fromSnapshot(await changing.snapshot());
    expect(first(restored, 'dispatcher api')).toBe('dispatcher');
    expect(first(restored, 'File system')).toBe('fs');
  });
});

describe('known-item queries by an alias: an alias names its document as its title does', () => {
  /** A page as the import writes one whose frontmatter has aliases: the line under the heading. */
  const aliased = (id: string, title: string, aliases: string[], body: string): IndexedDocument =>
    page(id, title, `${aliasesLine(aliases)}\n\n${body}`);
  const intro = aliased('intro', 'Getting started', ['Foo Bar', 'Onboarding'], 'Read this first.');
  const mentions = Array.from({ length: 5 }, (_, n) =>
    page(`mention-${n}`, `Mention ${n}`, repeat('The foo bar holds a foo and a bar for onboarding.', 10)),
  );
  const index = build([...DISTRACTORS, ...mentions, intro]);

  it.each(['Foo Bar', 'foo bar', 'Foo-Bar', 'FOO BARS', 'onboarding'])('"%s"', (query) => {
    expect(first(index, query)).toBe('intro');
  });

  it('ranks by BM25F when the query only contains an alias', () => {
    expect(first(index, 'foo bar holds')).not.toBe('intro');
  });

  it('forgets an alias the body no longer states, and keeps aliases through a snapshot', async () => {
    const changing = build([...DISTRACTORS, ...mentions, intro]);
    changing.upsert(page('intro', 'Getting started', 'Read this first.'));
    expect(first(changing, 'foo bar')).not.toBe('intro');
    expect(first(changing, 'getting started')).toBe('intro');
    changing.upsert(aliased('intro', 'Getting started', ['Foo Bar'], 'Read this first.'));
    const restored = OrgSearchIndex.fromSnapshot(await changing.snapshot());
    expect(first(restored, 'foo bar')).toBe('intro');
    expect(first(restored, 'onboarding')).not.toBe('intro');
    restored.upsert(page('intro', 'Getting started', 'Read this first.'));
    expect(first(restored, 'foo bar')).not.toBe('intro');
  });

  it('weighs an alias word as a title word: above a shorter page that says it once in its body', () => {
    const pair = build([
      ...DISTRACTORS,
      aliased('z-aliased', 'Engine notes', ['Zorblax engine'], 'Startup, shutdown and tuning of the service.'),
      page('a-once', 'Engine pages', 'Zorblax startup, shutdown and tuning of the service.'),
    ]);
    expect(ranked(pair, 'zorblax').map((hit) => hit.id)).toEqual(['z-aliased', 'a-once']);
  });
});

describe('what a reader sees is what is indexed and previewed', () => {
  const api = page(
    'os-page',
    'OS',
    [
      '<!--introduced_in=v0.10.0-->',
      '<!-- YAML',
      'added: v2.3.0',
      '-->',
      'A utility class with [links](https://nodejs.org/v2/api.html) and <span class="hidden">tags</span>.',
      '',
      '[links]: https://example.com/reference-target',
    ].join('\n'),
  );
  const index = build([api, ...DISTRACTORS.slice(-5)]);

  it('finds neither comments, tag names, attributes nor link targets', () => {
    for (const hidden of ['v2', 'YAML', 'introduced_in', 'span', 'hidden', 'nodejs', 'reference-target'])
      expect(ranked(index, hidden).map((hit) => hit.id)).not.toContain('os-page');
    for (const shown of ['utility', 'links', 'tags']) expect(first(index, shown)).toBe('os-page');
  });

  it('previews the text only, never starting or ending inside markup', () => {
    const preview = ranked(index, 'utility')[0]!.preview;
    expect(preview).toBe('A utility class with links and tags .');
    expect(preview).not.toMatch(/<|>|\]\(|-->/);
  });
});
