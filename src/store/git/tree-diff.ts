import { readTreeEntries, type Repo, type TreeEntry } from './repo.js';

export interface FileChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * Trees by id while walking history: a commit's trees are the next commit's parent trees,
 * so each is parsed once.
 */
export class TreeCache {
  private readonly trees = new Map<string, Promise<TreeEntry[]>>();
  constructor(private readonly capacity = 256) {}

  read(repo: Repo, oid: string | null): Promise<TreeEntry[]> {
    if (!oid) return Promise.resolve([]);
    let entries = this.trees.get(oid);
    if (!entries) {
      entries = readTreeEntries(repo, oid);
      this.trees.set(oid, entries);
      if (this.trees.size > this.capacity) this.trees.delete(this.trees.keys().next().value as string);
    }
    return entries;
  }
}

/** A path whose entry (not a tree: a file, a symlink, a submodule) differs between two trees, in id or mode. */
export interface EntryChange {
  readonly path: string;
  readonly before: TreeEntry | null;
  readonly after: TreeEntry | null;
}

/** Entries that differ between two trees, every mode kept; unchanged subtrees are skipped by id. */
export async function changedEntries(
  repo: Repo,
  before: string | null,
  after: string | null,
  trees: TreeCache,
  prefix = '',
): Promise<EntryChange[]> {
  if (before === after) return [];
  const [old, now] = await Promise.all([trees.read(repo, before), trees.read(repo, after)]);
  const remaining = new Map(old.map((entry) => [entry.path, entry]));
  const changes: EntryChange[] = [];
  const descend = async (path: string, from: TreeEntry | undefined, to: TreeEntry | undefined) => {
    const tree = (e: TreeEntry | undefined) => (e?.type === 'tree' ? e.oid : null);
    const leaf = (e: TreeEntry | undefined) => (e && e.type !== 'tree' ? e : null);
    if (tree(from) || tree(to)) changes.push(...(await changedEntries(repo, tree(from), tree(to), trees, `${path}/`)));
    const [a, b] = [leaf(from), leaf(to)];
    if (a?.oid !== b?.oid || a?.mode !== b?.mode) changes.push({ path, before: a, after: b });
  };
  for (const entry of now) {
    const previous = remaining.get(entry.path);
    remaining.delete(entry.path);
    if (previous?.oid !== entry.oid || previous.mode !== entry.mode)
      await descend(prefix + entry.path, previous, entry);
  }
  for (const entry of remaining.values()) await descend(prefix + entry.path, entry, undefined);
  return changes;
}

/** Files whose blob differs between two trees; unchanged subtrees are skipped by id. */
export async function changedFiles(
  repo: Repo,
  before: string | null,
  after: string | null,
  trees: TreeCache,
): Promise<FileChange[]> {
  const blob = (entry: TreeEntry | null) => (entry?.type === 'blob' ? entry.oid : null);
  return (await changedEntries(repo, before, after, trees)).flatMap((change) => {
    const [from, to] = [blob(change.before), blob(change.after)];
    return from === to ? [] : [{ path: change.path, before: from, after: to }];
  });
}
