import { gitEnvironment, launcher, type LaunchedProcess } from '../../launcher/index.js';

/** What BlobBatch.read rejects with when git has no blob by that name (none, or another kind of object). */
export class MissingObjectError extends Error {
  constructor(readonly objectName: string) {
    super(`object ${objectName} is missing`);
  }
}

type Waiter = { resolve: (data: Buffer) => void; reject: (error: Error) => void };

/** An answer being read: its object's bytes so far, and who asked. */
interface Receiving {
  readonly name: string;
  readonly kind: string;
  readonly data: Buffer;
  filled: number;
  readonly waiter: Waiter;
}

/**
 * Objects through one `git cat-file --batch`: requests are written as they come, answers read
 * back in the same order, so many reads share one process and overlap. Each object is copied
 * once, into a buffer of its size, as its chunks arrive: gathering the chunks by concatenation
 * copied a 1 MiB blob about 16 times over, into fresh memory each time, and held the event loop
 * for over 100 ms on a virtual machine where touching new memory is slow.
 */
export class CatFileBatch {
  private readonly child: LaunchedProcess;
  private readonly waiting: Waiter[] = [];
  /** A header line cut by the end of a chunk. */
  private header = '';
  private receiving: Receiving | undefined;
  /** The newline git writes after each object's bytes, still to be read. */
  private newlineDue = false;
  private failure: Error | undefined;
  private corked = false;

  /** `objects` points git at more object directories (a push's quarantine, see pushed-history.ts). */
  constructor(gitdir: string, objects: Readonly<Record<string, string>> = {}) {
    this.child = launcher.launch('git', ['--git-dir', gitdir, 'cat-file', '--batch'], {
      env: gitEnvironment(objects),
    });
    this.child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error) => {
      this.failure ??= error;
      if (this.receiving) this.waiting.unshift(this.receiving.waiter);
      this.receiving = undefined;
      for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
    };
    this.child.on('error', fail);
    this.child.on('exit', () => fail(new Error('git cat-file stopped')));
    this.child.stdin.on('error', fail);
  }

  /** False once git stopped or failed: every read after that fails too. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  read(oid: string): Promise<Buffer> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.corked) {
      // Requests made in one turn go to git in one write.
      this.corked = true;
      this.child.stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        this.child.stdin.uncork();
      });
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.child.stdin.write(`${oid}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }

  private receive(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.newlineDue) {
        this.newlineDue = false;
        at++;
      } else if (this.receiving) {
        at = this.fill(this.receiving, chunk, at);
      } else {
        const newline = chunk.indexOf(10, at);
        if (newline < 0) {
          this.header += chunk.toString('latin1', at);
          return;
        }
        this.start(this.header + chunk.toString('latin1', at, newline));
        this.header = '';
        at = newline + 1;
      }
    }
  }

  /** `<oid> <kind> <size>` starts an object's bytes; `<name> missing` (or ambiguous) answers at once. */
  private start(line: string): void {
    const [name = '', kind = '', size] = line.split(' ');
    const waiter = this.waiting.shift();
    if (!waiter) return;
    if (size === undefined) {
      waiter.reject(new MissingObjectError(name));
      return;
    }
    this.receiving = { name, kind, data: Buffer.allocUnsafe(Number(size)), filled: 0, waiter };
    this.fill(this.receiving, Buffer.alloc(0), 0);
  }

  /** Copies what the chunk holds of the object from `at`; settles it once whole. Returns where it stopped. */
  private fill(object: Receiving, chunk: Buffer, at: number): number {
    const end = Math.min(chunk.length, at + object.data.length - object.filled);
    object.filled += chunk.copy(object.data, object.filled, at, end);
    if (object.filled === object.data.length) {
      this.receiving = undefined;
      this.newlineDue = true;
      if (object.kind === 'blob') object.waiter.resolve(object.data);
      else object.waiter.reject(new MissingObjectError(object.name));
    }
    return end;
  }
}
