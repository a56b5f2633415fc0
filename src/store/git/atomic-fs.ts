import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsync,
  mkdirSync,
  openSync,
  promises as fsp,
  renameSync,
  rmSync,
  writeFileSync,
  type MakeDirectoryOptions,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** Unique name beside the target; `tmp_obj_` is the prefix git itself uses and fsck tolerates. */
export const tempPathBeside = (target: string): string =>
  path.join(path.dirname(target), `tmp_obj_${process.pid}_${randomBytes(6).toString('hex')}`);

const fsyncDescriptor = promisify(fsync);

/**
 * Syncs a file or directory named by its path. Opening and closing take microseconds and are
 * done in place: as promises, each would be a thread pool round trip, and only the sync itself
 * waits on the disk.
 */
export async function syncPath(target: string): Promise<void> {
  const descriptor = openSync(target, 'r');
  try {
    await fsyncDescriptor(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * How written files reach the disk. A rename survives a power loss only once the file's data and
 * then the directory entry are flushed, so, as git's `core.fsync` does for objects and refs, the
 * durable kind syncs the file before the rename and its directory after.
 */
export interface Durability {
  syncFile(file: fsp.FileHandle, target: string): Promise<void>;
  /** A file or directory, by its path. */
  syncPath(target: string): Promise<void>;
}

export const FSYNC: Durability = {
  syncFile: (file) => file.sync(),
  syncPath,
};

/** For caches that can be rebuilt, and for deployments that accept losing the last edits on power loss. */
export const NO_FSYNC: Durability = {
  syncFile: async () => undefined,
  syncPath: async () => undefined,
};

/**
 * Writes a file whole or not at all: a killed process leaves the old file or a stray temp file.
 * `stagingDir` (same filesystem) keeps the temp file out of a directory others scan, like refs/.
 */
export async function writeFileAtomically(
  target: string,
  data: string | Uint8Array,
  stagingDir?: string,
  durability: Durability = NO_FSYNC,
): Promise<void> {
  const temp = stagingDir ? path.join(stagingDir, path.basename(tempPathBeside(target))) : tempPathBeside(target);
  if (stagingDir) await fsp.mkdir(stagingDir, { recursive: true });
  const file = await fsp.open(temp, 'wx');
  try {
    try {
      await file.writeFile(data);
      await durability.syncFile(file, target);
    } finally {
      await file.close();
    }
    await fsp.rename(temp, target);
  } catch (error) {
    await fsp.rm(temp, { force: true });
    throw error;
  }
  await durability.syncPath(path.dirname(target));
}

/**
 * writeFileAtomically for a small file that names what is still reaching the disk (a push's
 * objects, moved in place meanwhile: see PushQuarantine.land): renamed once `renameAfter`
 * resolves, never if it rejects. It is written and its sync started now, in place, before those
 * moves hold the event loop: as promises, each step would wait for them to end, then for a
 * thread pool round trip, and only the rename and the directory's sync are left after them.
 */
export async function writeFileAfter(
  target: string,
  data: string,
  stagingDir: string,
  durability: Durability,
  renameAfter: Promise<unknown>,
): Promise<void> {
  const temp = path.join(stagingDir, path.basename(tempPathBeside(target)));
  mkdirSync(stagingDir, { recursive: true });
  try {
    writeFileSync(temp, data, { flag: 'wx' });
    await durability.syncPath(temp);
    await renameAfter;
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  await durability.syncPath(path.dirname(target));
}

/** A write whose directory may not exist yet: made (and its entry synced) as isomorphic-git would on ENOENT. */
async function writeCreatingDirectory(
  target: string,
  data: string | Uint8Array,
  durability: Durability,
): Promise<void> {
  try {
    await writeFileAtomically(target, data, undefined, durability);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const dir = path.dirname(target);
    await fsp.mkdir(dir, { recursive: true });
    await durability.syncPath(path.dirname(dir));
    await writeFileAtomically(target, data, undefined, durability);
  }
}

/**
 * The fs handed to isomorphic-git. Its loose-object writes are plain `writeFile`s, so a crash
 * mid-write would leave a truncated object; here every write goes through temp file + rename,
 * synced as `durability` says (a new object directory's entry included).
 * A missing directory still fails with ENOENT, which isomorphic-git answers with mkdir + retry.
 *
 * Within `writingTogether(work)` a write returns at once and runs beside the ones after it, each
 * still synced before its rename and its directory after; the call resolves once all of them
 * are on disk and rejects if one failed. isomorphic-git awaits each object's write before it
 * builds the next, which needs only the previous object's id: with fsync on, a commit's blob,
 * trees and commit object were otherwise a dozen fsyncs one after the other. The caller moves
 * no ref before the call resolves, so no ref ever names an object not yet durable.
 */
export function repositoryFs(durability: Durability) {
  let together: Promise<void>[] | undefined;
  return {
    promises: {
      readFile: fsp.readFile,
      writeFile(target: string, data: string | Uint8Array): Promise<void> {
        if (!together) return writeFileAtomically(target, data, undefined, durability);
        const write = writeCreatingDirectory(target, data, durability);
        // Observed when the batch is awaited; without a handler now, an early failure would be an unhandled rejection.
        write.catch(() => undefined);
        together.push(write);
        return Promise.resolve();
      },
      async mkdir(dir: string, options?: MakeDirectoryOptions) {
        await fsp.mkdir(dir, options);
        await durability.syncPath(path.dirname(dir));
      },
      rmdir: fsp.rmdir,
      rm: fsp.rm,
      unlink: fsp.unlink,
      stat: fsp.stat,
      lstat: fsp.lstat,
      readdir: fsp.readdir,
      readlink: fsp.readlink,
      symlink: fsp.symlink,
    },
    async writingTogether<T>(work: () => Promise<T>): Promise<T> {
      const writes: Promise<void>[] = [];
      together = writes;
      let result: T;
      try {
        result = await work();
      } catch (error) {
        await Promise.allSettled(writes);
        throw error;
      } finally {
        together = undefined;
      }
      await Promise.all(writes);
      return result;
    },
  };
}
