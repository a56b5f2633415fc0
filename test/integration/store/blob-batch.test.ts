import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BlobBatch, MissingObjectError } from '../../../src/store/git/index.js';
import { readLooseBlob } from '../../../src/store/git/loose-object.js';

let dir: string;
let gitdir: string;
let batch: BlobBatch | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'specbase-blob-batch-'));
  gitdir = path.join(dir, 'repo.git');
  execFileSync('git', ['init', '--quiet', '--bare', gitdir]);
});

afterEach(async () => {
  batch?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Moves the objects into a pack (blobs nothing refers to, which `git repack` would leave loose). */
const pack = (oids: readonly string[]) => {
  execFileSync('git', ['--git-dir', gitdir, 'pack-objects', '-q', path.join(gitdir, 'objects', 'pack', 'pack')], {
    input: `${oids.join('\n')}\n`,
  });
  execFileSync('git', ['--git-dir', gitdir, 'prune-packed']);
};
const catFile = (oid: string): Buffer => execFileSync('git', ['--git-dir', gitdir, 'cat-file', 'blob', oid]);
const looseFile = (oid: string) => path.join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

const writeBlob = (data: Buffer): string =>
  execFileSync('git', ['--git-dir', gitdir, 'hash-object', '-w', '--stdin'], { input: data, encoding: 'utf8' }).trim();

it('answers reads in order, whole: blobs larger than a pipe chunk, empty ones, and missing or non-blob objects in between', async () => {
  // Bytes of every value, newlines included, so that no answer can be cut at the wrong place.
  const large = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
  for (let i = 0; i < large.length; i++) large[i] = (i * 7 + (i >> 9)) & 0xff;
  const small = Buffer.from('line one\nline two\n');
  const empty = Buffer.alloc(0);
  const [largeId, smallId, emptyId] = [writeBlob(large), writeBlob(small), writeBlob(empty)];
  const treeId = execFileSync('git', ['--git-dir', gitdir, 'mktree'], {
    input: `100644 blob ${smallId}\tsmall.txt\n`,
    encoding: 'utf8',
  }).trim();
  batch = new BlobBatch(gitdir);
  const reads = [largeId, 'f'.repeat(40), smallId, emptyId, treeId, largeId, 'not-an-object', smallId].map((name) =>
    batch!.read(name).then(
      (data) => ({ data }),
      (error: Error) => ({ error }),
    ),
  );
  const answers = await Promise.all(reads);
  const expected = [large, undefined, small, empty, undefined, large, undefined, small];
  answers.forEach((answer, i) => {
    const want = expected[i];
    if (want) expect('data' in answer && answer.data.equals(want), `read ${i}`).toBe(true);
    else expect('error' in answer && answer.error, `read ${i}`).toBeInstanceOf(MissingObjectError);
  });
  // The batch still serves after all that.
  expect((await batch.read(smallId)).equals(small)).toBe(true);
});

it('fails the reads git has not answered when it stops, and every read after', async () => {
  const id = writeBlob(Buffer.alloc(2 * 1024 * 1024, 'a'));
  // Packed, so that git answers it rather than the loose object reader.
  pack([id]);
  batch = new BlobBatch(gitdir);
  expect((await batch.read(id)).length).toBe(2 * 1024 * 1024);
  const pending = batch.read(id);
  execFileSync('pkill', ['-f', '--', `--git-dir ${gitdir} cat-file`]);
  await pending.then(
    (data) => expect(data.length).toBe(2 * 1024 * 1024),
    (error: Error) => expect(error.message).toMatch(/stopped|EPIPE|closed/),
  );
  await expect.poll(() => batch!.usable).toBe(false);
  await expect(batch.read(id)).rejects.toThrow(/stopped|EPIPE/);
});

it('reads loose blobs from their files and leaves packed ones, other kinds and other names to git', () => {
  const packed = writeBlob(Buffer.from('packed\n'));
  pack([packed]);
  const loose = writeBlob(Buffer.from('loose\n'));
  const tree = execFileSync('git', ['--git-dir', gitdir, 'mktree'], {
    input: `100644 blob ${loose}\tloose.txt\n`,
    encoding: 'utf8',
  }).trim();
  expect(existsSync(looseFile(packed))).toBe(false);
  expect(Buffer.from(readLooseBlob(gitdir, loose)!).equals(catFile(loose))).toBe(true);
  expect(readLooseBlob(gitdir, packed)).toBeUndefined();
  expect(readLooseBlob(gitdir, tree)).toBeUndefined();
  expect(readLooseBlob(gitdir, `main:loose.txt`)).toBeUndefined();
  expect(readLooseBlob(gitdir, `../${loose.slice(3)}`)).toBeUndefined();
});

it('reads loose object files of any size, each with its own bytes: larger than the read space, then smaller', () => {
  // Random bytes do not deflate: the object file is larger than the 64 KiB read at once.
  const blobs = [
    randomBytes(200_000),
    Buffer.from('short\n'),
    randomBytes(70_000),
    Buffer.alloc(0),
    randomBytes(65_000),
  ].map(writeBlob);
  for (const oid of [...blobs, ...blobs.reverse()])
    expect(Buffer.from(readLooseBlob(gitdir, oid)!).equals(catFile(oid)), oid).toBe(true);
});

it('answers loose and packed blobs alike, interleaved, with the bytes git has', async () => {
  const packedData = [Buffer.alloc(300_000, 'p'), Buffer.from('packed one\n'), Buffer.from('packed two\n')];
  const packed = packedData.map(writeBlob);
  pack(packed);
  const looseData = [Buffer.from('loose one\n'), Buffer.alloc(500_000, 'l'), Buffer.from('ünïcode\n')];
  const loose = looseData.map(writeBlob);
  batch = new BlobBatch(gitdir);
  const names = [packed[0]!, loose[0]!, packed[1]!, loose[1]!, loose[2]!, packed[2]!];
  const answers = await Promise.all(names.map((name) => batch!.read(name)));
  answers.forEach((answer, i) => expect(answer.equals(catFile(names[i]!)), `read ${i}`).toBe(true));
});

it('does not answer a damaged loose object with its bytes: git reports it', async () => {
  const id = writeBlob(Buffer.from('will be damaged\n'));
  const file = looseFile(id);
  const whole = readFileSync(file);
  await rm(file, { force: true });
  writeFileSync(file, whole.subarray(0, whole.length - 6));
  expect(readLooseBlob(gitdir, id)).toBeUndefined();
  batch = new BlobBatch(gitdir);
  await expect(batch.read(id)).rejects.toThrow();
});

it('a process that starts the loose object reader ahead of use, and never uses it, still exits on its own', async () => {
  const thread = pathToFileURL(path.resolve('src/store/git/loose-blob-thread.ts')).href;
  const script = `import { prepareLooseBlobs } from ${JSON.stringify(thread)}; prepareLooseBlobs();`;
  // Killed at the timeout (an error) if the thread keeps it alive, as it kept the CLI.
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
});
