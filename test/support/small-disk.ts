import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A small ext4 file system of its own (an image on a loop device), for a disk that fills up or
 * turns read-only while the service holds its files open. A read-only bind mount, as
 * read-only-storage.test.ts uses for the repositories, cannot do that to SQLite: a file opened
 * before the mount goes read-only keeps being written through its open descriptor.
 */
export interface SmallDisk {
  /** Where it is mounted. */
  readonly dir: string;
  /** Takes every free block, as another process filling the disk would: writes then fail with ENOSPC. */
  fill(): void;
  /** Gives back what fill() took. */
  free(): void;
  /**
   * What the kernel does to ext4 after a disk error (errors=remount-ro): the journal is aborted
   * and the file system remounted read-only, open files included. For good: only unmounting ends it.
   */
  turnReadOnly(): void;
  /** Unmounts it and removes its image. */
  remove(): void;
}

const run = (command: string, args: readonly string[]) => execFileSync(command, args, { stdio: 'pipe' });

export function makeSmallDisk(megabytes = 32): SmallDisk {
  const home = mkdtempSync(path.join(os.tmpdir(), 'specbase-disk-'));
  const image = path.join(home, 'disk.img');
  const dir = path.join(home, 'mnt');
  mkdirSync(dir);
  let mounted = false;
  const remove = () => {
    if (mounted) {
      try {
        run('umount', [dir]);
      } catch {
        run('umount', ['-l', dir]);
      }
      mounted = false;
    }
    rmSync(home, { recursive: true, force: true });
  };
  try {
    run('truncate', ['-s', `${megabytes}M`, image]);
    // No blocks reserved for root: the tests run as root, and would otherwise never fill it.
    run('mkfs.ext4', ['-q', '-F', '-m', '0', image]);
    run('mount', ['-o', 'loop', image, dir]);
    mounted = true;
  } catch (error) {
    remove();
    throw error;
  }
  const fillers = ['fill-1m', 'fill-4k'].map((name) => path.join(dir, name));
  return {
    dir,
    fill() {
      // Large blocks first, then small ones for what is left; dd stops at ENOSPC (exit status 1).
      spawnSync('dd', ['if=/dev/zero', `of=${fillers[0]}`, 'bs=1M'], { stdio: 'ignore' });
      spawnSync('dd', ['if=/dev/zero', `of=${fillers[1]}`, 'bs=4k'], { stdio: 'ignore' });
    },
    free() {
      for (const filler of fillers) rmSync(filler, { force: true });
    },
    turnReadOnly() {
      run('mount', ['-o', 'remount,abort', dir]);
    },
    remove,
  };
}

let supported: boolean | undefined;

/** Whether this machine lets the tests make one (root, loop devices, mkfs.ext4): tried once. */
export function smallDisksSupported(): boolean {
  if (supported === undefined) {
    try {
      if (process.getuid?.() !== 0) throw new Error('not root');
      makeSmallDisk(8).remove();
      supported = true;
    } catch {
      supported = false;
    }
  }
  return supported;
}
