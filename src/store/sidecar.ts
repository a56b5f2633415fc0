import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from './atomic-fs.js';
import { OrgState, type OrgSnapshot } from './org-state.js';

const FORMAT = 1;
const sidecarDir = (gitdir: string) => path.join(gitdir, 'specbase');
const sidecarFile = (gitdir: string) => path.join(sidecarDir(gitdir), 'index.json');

/**
 * The catalog and history index kept beside the objects, so a restart catches up from the last
 * indexed commit instead of re-reading all history. Only a cache: any problem means rebuild.
 */
export async function loadSidecar(gitdir: string): Promise<OrgState | undefined> {
  try {
    const parsed = JSON.parse(await fsp.readFile(sidecarFile(gitdir), 'utf8')) as { format?: number; snapshot?: OrgSnapshot };
    if (parsed.format !== FORMAT || typeof parsed.snapshot?.head !== 'string') return undefined;
    return OrgState.fromSnapshot(parsed.snapshot);
  } catch {
    return undefined;
  }
}

/** Never recreates a removed repository: only the sidecar directory itself is made. */
export async function saveSidecar(gitdir: string, state: OrgState): Promise<void> {
  const snapshot = state.snapshot();
  if (!snapshot) return;
  await fsp.mkdir(sidecarDir(gitdir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await writeFileAtomically(sidecarFile(gitdir), JSON.stringify({ format: FORMAT, snapshot }));
}
