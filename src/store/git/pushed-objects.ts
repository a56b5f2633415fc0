import type { CommitObject, TreeEntry } from 'isomorphic-git';
import { looseObjectFiles, readLooseObject, readLooseObjectUnlessBlob, type LooseObject } from './loose-object.js';
import { MalformedObjectError, parseCommit, parseTree } from './object-format.js';

/** A pushed object git's fsck would refuse, or one no branch push needs (a tag): which, and why. */
export class RefusedObjectError extends Error {
  constructor(
    readonly oid: string,
    reason: string,
  ) {
    super(`object ${oid.slice(0, 10)} is ${reason}`);
  }
}

/** Objects read in process, ahead of isomorphic-git (see Repo.objects); undefined where they do not answer. */
export interface ObjectSource {
  commit(oid: string): CommitObject | undefined;
  tree(oid: string): TreeEntry[] | undefined;
  blob(oid: string): Uint8Array | undefined;
}

/**
 * The objects of a push unpacked loose into its quarantine (`git unpack-objects`), each checked
 * up front as `git unpack-objects --strict` would check it (see object-format.ts; of a blob,
 * its kind only: its bytes are read when asked for), and the repository's own loose objects
 * after them, each read and inflated in one call. --strict would also look up every entry of
 * each pushed tree in the repository (some 500 for one changed file at 10,000 artifacts); the
 * store's checks read every object a pushed commit adds instead, so a missing one is refused
 * all the same (see checkPush).
 */
export class PushedObjects implements ObjectSource {
  /** Every pushed object's kind; blobs are read when asked for, commits and trees here. */
  readonly #kinds = new Map<string, string>();
  readonly #commits = new Map<string, CommitObject>();
  readonly #trees = new Map<string, TreeEntry[]>();

  /** Throws RefusedObjectError for the first object that breaks a rule. */
  constructor(
    private readonly quarantineDir: string,
    private readonly repositoryObjects: string,
  ) {
    for (const { prefix, names } of looseObjectFiles(quarantineDir)) {
      for (const rest of names) this.#check(prefix + rest);
    }
  }

  #check(oid: string): void {
    const object = readLooseObjectUnlessBlob(this.quarantineDir, oid);
    if (!object) throw new RefusedObjectError(oid, 'unreadable');
    const { kind, body } = object;
    this.#kinds.set(oid, kind);
    if (kind === 'blob') return;
    try {
      if (kind !== 'commit' && kind !== 'tree') {
        throw new MalformedObjectError(`a ${kind}, which a push of branches never needs`);
      }
      if (!body) throw new RefusedObjectError(oid, 'unreadable');
      if (kind === 'commit') this.#commits.set(oid, parseCommit(body));
      else this.#trees.set(oid, parseTree(body));
    } catch (error) {
      if (error instanceof MalformedObjectError) throw new RefusedObjectError(oid, error.message);
      throw error;
    }
  }

  commit(oid: string): CommitObject | undefined {
    return this.#commits.get(oid) ?? this.#parsedOwn(oid, 'commit', parseCommit);
  }

  tree(oid: string): TreeEntry[] | undefined {
    return this.#trees.get(oid) ?? this.#parsedOwn(oid, 'tree', parseTree);
  }

  blob(oid: string): Uint8Array | undefined {
    return this.#of(oid, 'blob')?.body;
  }

  #parsedOwn<T>(oid: string, kind: string, parse: (body: Buffer) => T): T | undefined {
    const object = this.#of(oid, kind);
    if (!object) return undefined;
    try {
      return parse(object.body);
    } catch (error) {
      // The repository's own object, not the pusher's: isomorphic-git reads it as it always has.
      if (error instanceof MalformedObjectError) return undefined;
      throw error;
    }
  }

  /**
   * Object `oid`, pushed or the repository's own loose one, when it is of `kind` (a commit or a
   * tree entry names it as one); undefined when neither has it (isomorphic-git then reads the
   * repository's packs).
   */
  #of(oid: string, kind: string): LooseObject | undefined {
    const pushed = this.#kinds.get(oid);
    if (pushed && pushed !== kind) throw new RefusedObjectError(oid, `a ${pushed}, named as a ${kind}`);
    const object = readLooseObject(pushed ? this.quarantineDir : this.repositoryObjects, oid);
    if (object && object.kind !== kind) throw new RefusedObjectError(oid, `a ${object.kind}, named as a ${kind}`);
    return object;
  }
}
