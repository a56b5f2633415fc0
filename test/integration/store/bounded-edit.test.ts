import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import { artifactFile, writeFirstLayoutRepository } from './first-layout.js';
import { alice, git, ORG } from './fixture.js';

const CRITERIA = 3000;

/** Loose objects of a repository: path -> size in bytes. */
function looseObjects(gitdir: string): Map<string, number> {
  const objects = new Map<string, number>();
  const root = path.join(gitdir, 'objects');
  for (const dir of readdirSync(root).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
    for (const file of readdirSync(path.join(root, dir)))
      objects.set(dir + file, statSync(path.join(root, dir, file)).size);
  }
  return objects;
}

let dataDir: string;
let gitdir: string;
let store: GitStore;
const product = randomUUID();
const criteria = Array.from({ length: CRITERIA }, (_, i) => ({ id: randomUUID(), title: `Criterion ${i}` }));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-bounded-'));
  gitdir = path.join(dataDir, 'orgs', `${ORG}.git`);
  const files = [
    {
      path: 'product.md',
      content: artifactFile({ id: product, type: 'product', parent: null, title: 'Acme', body: '# Acme\n' }),
    },
    ...criteria.map((c) => ({
      path: `acceptance-criteria/criterion-${c.title.split(' ')[1]}-${c.id.slice(0, 8)}.md`,
      content: artifactFile({
        id: c.id,
        type: 'acceptance_criterion',
        parent: product,
        title: c.title,
        body: `# ${c.title}\n\nGiven a user.\n`,
      }),
    })),
  ];
  writeFirstLayoutRepository(gitdir, [{ ctx: alice, message: 'Seed\n', files }]);
  store = new GitStore({ dataDir });
}, 120_000);
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`an edit among ${CRITERIA} acceptance criteria`, () => {
  it('after the migration, writes one blob, four small trees (two shard levels, type directory, root) and one commit', async () => {
    expect((await store.migrateLayout(ORG))?.moved).toBe(CRITERIA);
    const flatTreeBytes = Number(git(gitdir, 'cat-file', '-s', 'main^:acceptance-criteria'));
    const target = criteria[1234]!;
    const before = looseObjects(gitdir);
    const edit = await store.update(
      ORG,
      target.id,
      { body: `# ${target.title}\n\nGiven a signed-in user.\n`, verb: 'edit' },
      alice,
    );
    const written = [...looseObjects(gitdir)].filter(([oid]) => !before.has(oid));
    const types = written.map(([oid]) => git(gitdir, 'cat-file', '-t', oid)).sort();
    expect(types).toEqual(['blob', 'commit', 'tree', 'tree', 'tree', 'tree']);
    const bytes = written.reduce((sum, [, size]) => sum + size, 0);
    // The flat layout rewrote a tree listing every criterion (tens of KB here, 216 KB at 7,390).
    expect(flatTreeBytes).toBeGreaterThan(100_000);
    expect(bytes).toBeLessThan(12_000);
    expect(git(gitdir, 'diff-tree', '-r', '--name-only', '--no-commit-id', edit.commit)).toBe(edit.artifact.path);
  });

  it('git log --follow sees through the move of every file (exact renames, beyond the rename limit)', () => {
    const moved = git(gitdir, 'ls-tree', '-r', '--name-only', 'main', '--', 'acceptance-criteria').split('\n').at(-1)!;
    expect(git(gitdir, 'log', '--follow', '--format=%s', 'main', '--', moved).split('\n').at(-1)).toBe('Seed');
    git(gitdir, 'fsck', '--strict', '--no-dangling');
  });
});
