import { setImmediate as nextTurn } from 'node:timers/promises';
import { SpecbaseError } from '../../errors.js';
import { parseRepositoryFile } from '../layout/index.js';
import { BlobBatch } from '../git/index.js';
import type { ArtifactRecord, StoreDocuments } from '../types.js';
import type { OrgHandle } from './org-handle.js';
import type { FedRecord } from './cold-feed.js';

/** Blobs asked of git at once: enough to keep its pipe busy, few enough to parse between turns. */
const WINDOW = 256;
const decoder = new TextDecoder('utf-8');

/**
 * Many artifacts with their bodies as of the state's head (all of them when `ids` is omitted,
 * in creation order), read through one `git cat-file --batch` instead of one object read each:
 * what building a search index needs. Unknown ids, and files another writer broke, are left out.
 */
export async function readMany(
  handle: OrgHandle,
  ids?: readonly string[],
  /** When given, each window of records goes here as it is read instead of into the result. */
  take?: (records: ArtifactRecord[]) => Promise<void>,
): Promise<ArtifactRecord[]> {
  const { state } = handle;
  const wanted = (ids ?? [...state.metas.keys()]).flatMap((id) => {
    const meta = state.metas.get(id);
    const blob = state.blobs.get(id);
    return meta && blob ? [{ meta, blob }] : [];
  });
  const records: ArtifactRecord[] = [];
  if (wanted.length === 0) return records;
  const batch = new BlobBatch(handle.repo.gitdir);
  try {
    for (let i = 0; i < wanted.length; i += WINDOW) {
      const window = wanted.slice(i, i + WINDOW);
      const texts = await Promise.all(window.map(({ blob }) => batch.read(blob)));
      const read: ArtifactRecord[] = take ? [] : records;
      window.forEach(({ meta }, k) => {
        try {
          const file = parseRepositoryFile(decoder.decode(texts[k]), meta.path);
          if (file.kind === 'artifact') read.push({ ...meta, body: file.body });
        } catch (error) {
          if (!(error instanceof SpecbaseError)) throw error;
        }
      });
      if (take && read.length > 0) await take(read);
      await nextTurn();
    }
  } finally {
    batch.close();
  }
  return records;
}

/**
 * See GitStore.documents: the records `fed` by a build from the root as it parses them, then,
 * from the state at `main`, those it did not hand over (parsed before the feed was taken, or
 * changed since).
 */
export async function readDocuments(
  fed: AsyncIterable<FedRecord[]> | undefined,
  current: () => Promise<OrgHandle>,
  take: (records: ArtifactRecord[]) => Promise<void>,
): Promise<StoreDocuments> {
  const taken = new Map<string, string>();
  for await (const batch of fed ?? []) {
    for (const { record, blob } of batch) taken.set(record.id, blob);
    await take(batch.map(({ record }) => record));
  }
  const handle = await current();
  const { state } = handle;
  const ids = [...state.metas.keys()];
  const version = state.entries.at(-1)?.commit ?? null;
  await readMany(
    handle,
    ids.filter((id) => taken.get(id) !== state.blobs.get(id)),
    take,
  );
  return { ids, version };
}
