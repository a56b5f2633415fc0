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

/** Files whose blob differs between two trees; unchanged subtrees are skipped by id. */
export async function changedFiles(
  repo: Repo,
  before: string | null,
  after: string | null,
  trees: TreeCache,
  prefix = '',
): Promise<FileChange[]> {
  if (before === after) return [];
  const [old, now] = await Promise.all([trees.read(repo, before), trees.read(repo, after)]);
  const remaining = new Map(old.map((entry) => [entry.path, entry]));
  const changes: FileChange[] = [];
  const descend = async (path: string, from: TreeEntry | undefined, to: TreeEntry | undefined) => {
    const tree = (e: TreeEntry | undefined) => (e?.type === 'tree' ? e.oid : null);
    const blob = (e: TreeEntry | undefined) => (e?.type === 'blob' ? e.oid : null);
    if (tree(from) || tree(to)) changes.push(...(await changedFiles(repo, tree(from), tree(to), trees, `${path}/`)));
    if (blob(from) !== blob(to)) changes.push({ path, before: blob(from), after: blob(to) });
  };
  for (const entry of now) {
    const previous = remaining.get(entry.path);
    remaining.delete(entry.path);
    if (previous?.oid !== entry.oid) await descend(prefix + entry.path, previous, entry);
  }
  for (const entry of remaining.values()) await descend(prefix + entry.path, entry, undefined);
  return changes;
}
