import { CatFileBatch } from './cat-file-batch.js';
import { readLooseBlobOffLoop } from './loose-blob-thread.js';

export { MissingObjectError } from './cat-file-batch.js';

/**
 * Blobs by name: a loose one read from its file in the loose object reader's thread, anything
 * else (packed objects, `<commit>:<path>` names, what that reader cannot read) answered by one
 * `git cat-file --batch`, started when first needed. A repository the store wrote holds loose
 * objects, so a cold build from the root often never starts git at all.
 */
export class BlobBatch {
  #git: CatFileBatch | undefined;
  #closed = false;

  constructor(private readonly gitdir: string) {}

  /** False once git stopped or failed: every read git would answer fails after that. */
  get usable(): boolean {
    return !this.#closed && (this.#git?.usable ?? true);
  }

  async read(name: string): Promise<Buffer> {
    if (this.#closed) throw new Error('the blob reader is closed');
    return (await readLooseBlobOffLoop(this.gitdir, name)) ?? this.#viaGit().read(name);
  }

  close(): void {
    this.#closed = true;
    this.#git?.close();
  }

  #viaGit(): CatFileBatch {
    if (this.#closed) throw new Error('the blob reader is closed');
    this.#git ??= new CatFileBatch(this.gitdir);
    return this.#git;
  }
}
