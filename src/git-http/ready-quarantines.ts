import type { PushLimits } from '../config/index.js';
import { PushQuarantine } from './push-quarantine.js';

/** How long a ready quarantine waits for its pack: git sends it within milliseconds of the advertisement. */
const WAIT_MS = 10_000;
/** Ready quarantines in all, across organizations: each holds a git process. */
const MAX_READY = 8;

/**
 * `git push` asks for the advertisement, works out its pack (about 6 ms for one file), then
 * sends it. When an editor asks for the advertisement, a quarantine with `git unpack-objects`
 * already started in it is made ready for that pack, so the pack is taken by a git that is
 * already running: starting one costs about 3.5 ms, a tenth of a one-file push. One waits per
 * organization, a few in all; one not taken soon (the branch was up to date, or the pack went
 * to another replica) is stopped and removed, and one for a pack of many objects gives way to
 * `git index-pack` (see PushQuarantine.unpack).
 */
export class ReadyQuarantines {
  readonly #ready = new Map<string, { quarantine: Promise<PushQuarantine>; expiry: NodeJS.Timeout }>();
  #closed = false;

  constructor(
    private readonly limits: PushLimits,
    private readonly waitMs = WAIT_MS,
  ) {}

  /** Makes one ready for `gitdir`, unless one already waits there or enough wait in all. */
  prepare(gitdir: string): void {
    if (this.#closed || this.#ready.has(gitdir) || this.#ready.size >= MAX_READY) return;
    const quarantine = PushQuarantine.open(gitdir).then((opened) => {
      opened.startUnpacker(this.limits);
      return opened;
    });
    quarantine.catch(() => void this.#drop(gitdir, quarantine));
    const expiry = setTimeout(() => void this.#drop(gitdir, quarantine), this.waitMs).unref();
    this.#ready.set(gitdir, { quarantine, expiry });
  }

  /** The quarantine ready for `gitdir`, now the caller's alone; a new one when none is (or it failed). */
  async take(gitdir: string): Promise<PushQuarantine> {
    const ready = this.#ready.get(gitdir);
    if (ready) {
      this.#ready.delete(gitdir);
      clearTimeout(ready.expiry);
      const quarantine = await ready.quarantine.catch(() => undefined);
      if (quarantine) return quarantine;
    }
    return PushQuarantine.open(gitdir);
  }

  /** Stops every waiting git and removes its quarantine. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#ready].map(([gitdir, { quarantine }]) => this.#drop(gitdir, quarantine)));
  }

  /** Stops and removes `quarantine` if it still waits for `gitdir` (not taken, nor replaced since). */
  async #drop(gitdir: string, quarantine: Promise<PushQuarantine>): Promise<void> {
    const ready = this.#ready.get(gitdir);
    if (ready?.quarantine !== quarantine) return;
    this.#ready.delete(gitdir);
    clearTimeout(ready.expiry);
    await (await ready.quarantine.catch(() => undefined))?.discard().catch(() => undefined);
  }
}
