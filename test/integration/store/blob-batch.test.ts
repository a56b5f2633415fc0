import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BlobBatch, MissingObjectError } from '../../../src/store/blob-batch.js';

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

const writeBlob = (data: Buffer): string => execFileSync('git', ['--git-dir', gitdir, 'hash-object', '-w', '--stdin'], { input: data, encoding: 'utf8' }).trim();

it('answers reads in order, whole: blobs larger than a pipe chunk, empty ones, and missing or non-blob objects in between', async () => {
  // Bytes of every value, newlines included, so that no answer can be cut at the wrong place.
  const large = Buffer.alloc(3 * 1024 * 1024 + 17, 0);
  for (let i = 0; i < large.length; i++) large[i] = (i * 7 + (i >> 9)) & 0xff;
  const small = Buffer.from('line one\nline two\n');
  const empty = Buffer.alloc(0);
  const [largeId, smallId, emptyId] = [writeBlob(large), writeBlob(small), writeBlob(empty)];
  const treeId = execFileSync('git', ['--git-dir', gitdir, 'mktree'], { input: `100644 blob ${smallId}\tsmall.txt\n`, encoding: 'utf8' }).trim();
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

it('fails the reads it has not answered when git stops, and every read after', async () => {
  const id = writeBlob(Buffer.alloc(2 * 1024 * 1024, 'a'));
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
