import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { PushLimits } from '../config/index.js';
import { gitEnvironment, launcher, type LaunchedProcess } from '../launcher/index.js';
import { looseObjectFiles, syncPath, type QuarantineObjects } from '../store/index.js';
import type { StreamBytes } from './push-request.js';

/**
 * Fewer objects than this are unpacked into loose objects, which the store reads and checks in
 * process (see PushedObjects); more are kept as the pack, indexed and fsck-checked by git. git's
 * own `receive.unpackLimit`.
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
  /** `git unpack-objects`, started before its pack came (see ReadyQuarantines); gone once used or ended. */
  #ready: LaunchedProcess | undefined;
  /** The loose objects' sync, started as soon as they are unpacked, while the store judges them. */
  #synced: Promise<void> | undefined;
  /** The loose objects git wrote, listed once it is done (see #looseObjects). */
  #loose: ReturnType<typeof looseObjectFiles> | undefined;
  #outputEnded!: () => void;
  /**
   * Resolves once git's output has ended: it closes it as it exits, every object written, a
   * moment before the launcher reports the exit that unpack() answers with. The objects may be
   * read from then on; whether git took the pack is still unpack()'s to say.
   */
  readonly written = new Promise<void>((resolve) => (this.#outputEnded = resolve));

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

  /** Starts `git unpack-objects` now, for a pack still to come: it reads the pack's header itself. */
  startUnpacker(limits: PushLimits): void {
    const ready = this.#launch(['unpack-objects', '-q', `--max-input-size=${limits.maxPackBytes}`], []);
    ready.stdout.resume();
    // A launcher lost while it waits: 'close' follows, and the pack goes to a git started for it.
    ready.on('error', () => undefined);
    ready.once('close', () => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    this.#ready = ready;
  }

  /**
   * Reads the pack that follows a push's commands into the quarantine with native git, bounded
   * by `limits` (objects read from the header before anything is unpacked, bytes by git itself,
   * time by `signal`). A pack of many objects is fsck-checked as git indexes it; loose ones are
   * checked by the store as it reads them (see PushedObjects): `--strict` would also look up
   * every entry of each pushed tree in the repository, some 500 lookups and 4 ms for one changed
   * file at 10,000 artifacts. Answers why the pack was not taken, if not.
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
    const loose = count < UNPACK_LIMIT;
    const child = (loose && this.#takeReady(header)) || this.#launchFor(version, count, limits, fsync);
    const stop = () => child.kill('SIGKILL');
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.once('end', () => {
      if (loose && fsync && !signal.aborted) {
        this.#synced = this.#syncLooseObjects();
        // Its failure is landing's to report (see land); a refused push never lands.
        this.#synced.catch(() => undefined);
      }
      this.#outputEnded();
    });
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

  /** The ready unpacker, given the header already read; undefined when there is none (or it ended). */
  #takeReady(header: Buffer): LaunchedProcess | undefined {
    const ready = this.#ready;
    this.#ready = undefined;
    ready?.stdin.write(header);
    return ready;
  }

  /** A git started for this pack, told its header: loose objects for a few, an indexed pack for many. */
  #launchFor(version: number, count: number, limits: PushLimits, fsync: boolean): LaunchedProcess {
    this.#stopReady();
    const packHeader = `--pack_header=${version},${count}`;
    const maxInput = `--max-input-size=${limits.maxPackBytes}`;
    if (count < UNPACK_LIMIT) return this.#launch(['unpack-objects', '-q', packHeader, maxInput], []);
    // Loose objects are synced as they land (see land); a pack is synced by git as it writes it.
    const config = fsync ? ['-c', 'core.fsync=objects', '-c', 'core.fsyncMethod=fsync'] : [];
    return this.#launch(['index-pack', '--stdin', '--fix-thin', '--strict', packHeader, maxInput], config);
  }

  #launch(tool: readonly string[], config: readonly string[]): LaunchedProcess {
    return launcher.launch('git', [...config, '--git-dir', this.gitdir, ...tool], {
      env: { ...gitEnvironment(this.objects), GLIBC_TUNABLES: keptHeap(process.env.GLIBC_TUNABLES) },
    });
  }

  #stopReady(): void {
    this.#ready?.kill('SIGKILL');
    this.#ready = undefined;
  }

  /**
   * Syncs every loose object side by side, where git (`core.fsync`) would sync them one after
   * another as it writes them; it runs while the store judges them, and landing waits for it.
   */
  async #syncLooseObjects(): Promise<void> {
    await Promise.all(
      this.#looseObjects().flatMap(({ prefix, names }) =>
        names.map((name) => syncPath(path.join(this.dir, prefix, name))),
      ),
    );
  }

  /**
   * The quarantine's loose objects, by fanout directory (`objects/xx`), listed once, when first
   * asked for after git is done: by the sync, then by landing.
   */
  #looseObjects(): ReturnType<typeof looseObjectFiles> {
    this.#loose ??= looseObjectFiles(this.dir);
    return this.#loose;
  }

  /**
   * Moves every object into the repository: packs first, each index last, then loose objects.
   * With `fsync`, every object (see #syncLooseObjects) and every directory that gained an entry
   * is synced before this resolves, as the store syncs its own objects, so that no branch moved
   * after it names an object a power loss could take back.
   */
  async land(fsync: boolean): Promise<void> {
    await this.#synced;
    const objects = path.join(this.gitdir, 'objects');
    const gained = new Set<string>();
    const packDir = path.join(this.dir, 'pack');
    const packs = existsSync(packDir) ? readdirSync(packDir) : [];
    for (const name of packs.sort((a, b) => rankOf(a) - rankOf(b))) {
      renameSync(path.join(packDir, name), path.join(objects, 'pack', name));
      gained.add(path.join(objects, 'pack'));
    }
    for (const { prefix, names } of this.#looseObjects()) {
      const target = path.join(objects, prefix);
      for (const name of names) {
        if (renameMakingDirectory(path.join(this.dir, prefix, name), path.join(target, name))) gained.add(objects);
      }
      gained.add(target);
    }
    if (fsync) await Promise.all([...gained].map((dir) => syncPath(dir)));
  }

  /** Stops a ready unpacker and removes the quarantine with whatever is left in it. */
  async discard(): Promise<void> {
    this.#stopReady();
    await this.#synced?.catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * glibc settings (any given kept) under which git keeps the heap it has grown: zlib's state for
 * each object it writes is allocated and freed again, and glibc gave that memory back to the
 * system after each object, so each next object faulted its pages in anew (about 95 page faults
 * of a one-file push's 6 objects). Other C libraries ignore the variable.
 */
function keptHeap(given: string | undefined): string {
  const kept = 'glibc.malloc.trim_threshold=268435456:glibc.malloc.top_pad=1048576';
  return given ? `${given}:${kept}` : kept;
}

/**
 * Renames `from` to `to`, making `to`'s directory first when it is missing; whether it made it.
 * Most of a push's objects land in a fanout directory that exists: asking first would cost each
 * of them a system call or two more.
 */
function renameMakingDirectory(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(to), { recursive: true });
    renameSync(from, to);
    return true;
  }
}
