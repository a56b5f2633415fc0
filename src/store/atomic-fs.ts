import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/** Unique name beside the target; `tmp_obj_` is the prefix git itself uses and fsck tolerates. */
export const tempPathBeside = (target: string): string =>
  path.join(path.dirname(target), `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);

/**
 * Writes a file whole or not at all: a killed process leaves the old file or a stray temp file.
 * `stagingDir` (same filesystem) keeps the temp file out of a directory others scan, like refs/.
 */
export async function writeFileAtomically(target: string, data: string | Uint8Array, stagingDir?: string): Promise<void> {
  const temp = stagingDir ? path.join(stagingDir, path.basename(tempPathBeside(target))) : tempPathBeside(target);
  if (stagingDir) await fsp.mkdir(stagingDir, { recursive: true });
  await fsp.writeFile(temp, data);
  try {
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
}

/**
 * The fs handed to isomorphic-git. Its loose-object writes are plain `writeFile`s, so a crash
 * mid-write would leave a truncated object; here every write goes through temp file + rename.
 * A missing directory still fails with ENOENT, which isomorphic-git answers with mkdir + retry.
 */
export const atomicFs = {
  promises: {
    readFile: fsp.readFile,
    writeFile: (target: string, data: string | Uint8Array) => writeFileAtomically(target, data),
    mkdir: fsp.mkdir,
    rmdir: fsp.rmdir,
    rm: fsp.rm,
    unlink: fsp.unlink,
    stat: fsp.stat,
    lstat: fsp.lstat,
    readdir: fsp.readdir,
    readlink: fsp.readlink,
    symlink: fsp.symlink,
  },
};
