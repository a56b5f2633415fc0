import { readTreeEntries, type Repo, type TreeEntry } from './repo.js';

export interface FileChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** Files whose blob differs between two trees; unchanged subtrees are skipped by id. */
export async function changedFiles(
  repo: Repo,
  before: string | null,
  after: string | null,
  prefix = '',
): Promise<FileChange[]> {
  if (before === after) return [];
  const [old, now] = await Promise.all([
    before ? readTreeEntries(repo, before) : Promise.resolve<TreeEntry[]>([]),
    after ? readTreeEntries(repo, after) : Promise.resolve<TreeEntry[]>([]),
  ]);
  const remaining = new Map(old.map((entry) => [entry.path, entry]));
  const changes: FileChange[] = [];
  const descend = async (path: string, from: TreeEntry | undefined, to: TreeEntry | undefined) => {
    const tree = (e: TreeEntry | undefined) => (e?.type === 'tree' ? e.oid : null);
    const blob = (e: TreeEntry | undefined) => (e?.type === 'blob' ? e.oid : null);
    if (tree(from) || tree(to)) changes.push(...(await changedFiles(repo, tree(from), tree(to), `${path}/`)));
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
