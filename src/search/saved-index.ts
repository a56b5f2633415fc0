import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IndexSnapshot } from './org-search-index.js';

/** Bumped whenever the saved form (ours or FlexSearch's export) or the text indexed changes: an older one is rebuilt. */
const FORMAT = 7;
const MANIFEST = 'current.json';

interface Manifest {
  readonly format: number;
  /** The commit of the last artifact change the index reflects. */
  readonly version: string;
  /** The directory holding this save's files; each save writes a new one, then points here. */
  readonly generation: string;
  readonly flexKeys: readonly string[];
}

/**
 * Writes an organization's index beside its repository: the files of a new generation first,
 * then the manifest that names it (renamed into place), then older generations are removed.
 * A crash at any point leaves the previous save readable, or none.
 */
export async function writeSavedIndex(dir: string, version: string, snapshot: IndexSnapshot): Promise<void> {
  const generation = `g-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const genDir = path.join(dir, generation);
  await mkdir(genDir, { recursive: true });
  await writeFile(path.join(genDir, 'docs.json'), JSON.stringify(snapshot.docs));
  await Promise.all(snapshot.flex.map(([, data], i) => writeFile(path.join(genDir, `flex-${i}`), data)));
  const manifest: Manifest = { format: FORMAT, version, generation, flexKeys: snapshot.flex.map(([key]) => key) };
  const temp = path.join(dir, `${MANIFEST}.${generation}.tmp`);
  await writeFile(temp, JSON.stringify(manifest));
  await rename(temp, path.join(dir, MANIFEST));
  for (const entry of await readdir(dir)) {
    if (entry !== MANIFEST && entry !== generation) await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

/** The manifest of the index saved in `dir`; undefined when there is none, it is unreadable or of another format. */
async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    return manifest.format === FORMAT && typeof manifest.version === 'string' && /^g-[\w-]+$/.test(manifest.generation)
      ? manifest
      : undefined;
  } catch {
    return undefined;
  }
}

/** The saved index and its version; undefined when there is none or it cannot be read. */
export async function readSavedIndex(dir: string): Promise<{ version: string; snapshot: IndexSnapshot } | undefined> {
  const manifest = await readManifest(dir);
  if (!manifest) return undefined;
  try {
    const genDir = path.join(dir, manifest.generation);
    const docs = JSON.parse(await readFile(path.join(genDir, 'docs.json'), 'utf8')) as IndexSnapshot['docs'];
    const flex = await Promise.all(
      manifest.flexKeys.map(async (key, i) => [key, await readFile(path.join(genDir, `flex-${i}`), 'utf8')] as const),
    );
    return { version: manifest.version, snapshot: { docs, flex } };
  } catch {
    return undefined;
  }
}

/** The version of the index saved in `dir`, read from its manifest alone (no index is loaded). */
export async function savedIndexVersion(dir: string): Promise<string | undefined> {
  return (await readManifest(dir))?.version;
}
