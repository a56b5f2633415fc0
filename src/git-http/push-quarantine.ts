import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PushLimits } from '../config/index.js';
import { gitEnvironment, launcher } from '../launcher/index.js';
import { FSYNC, type QuarantineObjects } from '../store/index.js';
import type { StreamBytes } from './push-request.js';

/**
 * Fewer objects than this are unpacked into loose objects, which the store's blob reader reads
 * off the event loop; more are kept as the pack, indexed. git's own `receive.unpackLimit`.
 */
const UNPACK_LIMIT = 100;
const PACK_HEADER_BYTES = 12;
/** A pack's files land in this order, its index last: git finds a pack by its index (git's own order). */
const PACK_FILE_RANK = ['.keep', '.pack', '.rev', '.idx'];
const rankOf = (name: string) => PACK_FILE_RANK.indexOf(path.extname(name));

/**
 * A push's objects, kept apart from the repository until the push is accepted, as git's own
 * receive-pack keeps them (`objects/tmp_objdir-incoming-*`): git reads them through
 * `objects` (the quarantine first, the repository as its alternate), and nothing of a refused
 * push ever reaches the repository.
 */
export class PushQuarantine {
  private constructor(
    private readonly gitdir: string,
    private readonly dir: string,
  ) {}

  static async open(gitdir: string): Promise<PushQuarantine> {
    return new PushQuarantine(gitdir, await mkdtemp(path.join(gitdir, 'objects', 'tmp_objdir-incoming-')));
  }

  get objects(): QuarantineObjects {
    return { GIT_OBJECT_DIRECTORY: this.dir, GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(this.gitdir, 'objects') };
  }

  /**
   * Reads the pack that follows a push's commands into the quarantine with native git, bounded
   * by `limits` (objects read from the header before anything is unpacked, bytes by git itself,
   * time by `signal`) and fsck-checked as it is written. Answers why it was not taken, if not.
   */
  async unpack(
    bytes: StreamBytes,
    limits: PushLimits,
    fsync: boolean,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const header = await bytes.take(PACK_HEADER_BYTES);
    if (!header || header.toString('latin1', 0, 4) !== 'PACK') return 'the push sent no pack; nothing was changed';
    const version = header.readUInt32BE(4);
    const count = header.readUInt32BE(8);
    if (count > limits.maxObjects) {
      return `the push holds ${count} objects; the limit is ${limits.maxObjects}; nothing was changed`;
    }
    const packHeader = `--pack_header=${version},${count}`;
    const maxInput = `--max-input-size=${limits.maxPackBytes}`;
    const tool =
      count < UNPACK_LIMIT
        ? ['unpack-objects', '-q', '--strict', packHeader, maxInput]
        : ['index-pack', '--stdin', '--fix-thin', '--strict', packHeader, maxInput];
    const config = fsync ? ['-c', 'core.fsync=objects', '-c', 'core.fsyncMethod=fsync'] : [];
    const child = launcher.launch('git', [...config, '--git-dir', this.gitdir, ...tool], {
      env: gitEnvironment(this.objects),
    });
    const stop = () => child.kill('SIGKILL');
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.resume();
    // Piped, not pipelined: a failure must leave the request open for the answer that says why.
    bytes.input.pipe(child.stdin);
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (exitCode: number | null) => resolve(exitCode));
      });
      if (signal.aborted) return String(signal.reason);
      if (code === 0) return undefined;
      const said = child.stderr
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/^(fatal|error): /, '');
      return `the pack could not be taken (${said || `git exited with ${code}`}); nothing was changed`;
    } finally {
      bytes.input.unpipe(child.stdin);
      signal.removeEventListener('abort', stop);
    }
  }

  /**
   * Moves every object into the repository: packs first, each index last, then loose objects.
   * With `fsync`, every directory that gained an entry is synced before this resolves, as the
   * store syncs its own objects' directories, so that no branch moved after it names an object
   * a power loss could take back.
   */
  async land(fsync: boolean): Promise<void> {
    const objects = path.join(this.gitdir, 'objects');
    const gained = new Set<string>();
    const packs = await readdir(path.join(this.dir, 'pack')).catch(() => [] as string[]);
    for (const name of packs.sort((a, b) => rankOf(a) - rankOf(b))) {
      await rename(path.join(this.dir, 'pack', name), path.join(objects, 'pack', name));
      gained.add(path.join(objects, 'pack'));
    }
    const fanout = (await readdir(this.dir)).filter((name) => /^[0-9a-f]{2}$/.test(name));
    await Promise.all(
      fanout.map(async (prefix) => {
        const target = path.join(objects, prefix);
        if (await mkdir(target, { recursive: true })) gained.add(objects);
        for (const name of await readdir(path.join(this.dir, prefix))) {
          await rename(path.join(this.dir, prefix, name), path.join(target, name));
        }
        gained.add(target);
      }),
    );
    if (fsync) await Promise.all([...gained].map((dir) => FSYNC.syncDirectory(dir)));
  }

  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
