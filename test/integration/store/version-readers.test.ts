import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { run } from '../../../src/launcher/index.js';
import { MissingObjectError } from '../../../src/store/git/index.js';
import { VersionReaders } from '../../../src/store/org/index.js';
import { git } from './fixture.js';

let dir: string;
let gitdir: string;
let readers: VersionReaders | undefined;

// The launcher is up before the first read, as a store starts it when it opens: its start (a
// second from TypeScript sources) would otherwise count against the short idle time below.
beforeAll(() => run('true', [], { env: process.env }));

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'specbase-versions-'));
  gitdir = path.join(dir, 'repo.git');
  execFileSync('git', ['init', '--quiet', '--bare', gitdir]);
});

afterEach(async () => {
  readers?.close();
  await rm(dir, { recursive: true, force: true });
});

const writeBlob = (text: string): string =>
  execFileSync('git', ['--git-dir', gitdir, 'hash-object', '-w', '--stdin'], { input: text, encoding: 'utf8' }).trim();

const IDENTITY = {
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/**
 * A file in a commit of its own, named as the store names an older version: `<commit>:<path>`.
 * git answers such names (a loose blob asked by its id is read from its file, without git).
 */
function writeVersion(text: string): string {
  const tree = execFileSync('git', ['--git-dir', gitdir, 'mktree'], {
    input: `100644 blob ${writeBlob(text)}\tfile.md\n`,
    encoding: 'utf8',
  }).trim();
  const commit = execFileSync('git', ['--git-dir', gitdir, 'commit-tree', tree, '-m', 'version'], {
    encoding: 'utf8',
    env: { ...process.env, ...IDENTITY },
  }).trim();
  return `${commit}:file.md`;
}

/** Pids of the `git cat-file --batch` processes reading this test's repository (from /proc: Linux only). */
function catFileProcesses(): number[] {
  const wanted = ['git', '--git-dir', gitdir, 'cat-file', '--batch'].join('\0');
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(wanted);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const until = async (done: () => boolean): Promise<void> => {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

it('reads at once share one git process, kept between reads until it has been idle', async () => {
  readers = new VersionReaders(300);
  const first = writeVersion('first version\n');
  const second = writeVersion('second version\n');
  const objects = readers.of(gitdir);
  const texts = await Promise.all([objects.read(first), objects.read(second)]);
  expect(texts.map((data) => data.toString('utf8'))).toEqual(['first version\n', 'second version\n']);
  const [pid] = catFileProcesses();
  expect(catFileProcesses()).toHaveLength(1);

  // An object written after git started is found by the same process.
  const later = writeVersion('written later\n');
  expect((await objects.read(later)).toString('utf8')).toBe('written later\n');
  expect(catFileProcesses()).toEqual([pid]);

  await until(() => catFileProcesses().length === 0);
  expect((await objects.read(first)).toString('utf8')).toBe('first version\n');
  expect(catFileProcesses()).toHaveLength(1);
  expect(catFileProcesses()).not.toEqual([pid]);
});

it('a missing object is a MissingObjectError and the process keeps serving; a killed git is replaced', async () => {
  readers = new VersionReaders();
  const blob = writeVersion('kept\n');
  const objects = readers.of(gitdir);
  await expect(objects.read('0'.repeat(40))).rejects.toBeInstanceOf(MissingObjectError);
  expect((await objects.read(blob)).toString('utf8')).toBe('kept\n');

  const [pid] = catFileProcesses();
  process.kill(pid!, 'SIGKILL');
  await until(() => catFileProcesses().length === 0);
  // The read that meets the dead process may fail; the one after starts a new git.
  await objects.read(blob).catch(() => undefined);
  expect((await objects.read(blob)).toString('utf8')).toBe('kept\n');
  expect(git(gitdir, 'cat-file', '-p', blob)).toBe('kept');
  expect(catFileProcesses()).toHaveLength(1);
});

it('close stops every git process and refuses further reads', async () => {
  readers = new VersionReaders();
  const blob = writeVersion('text\n');
  await readers.of(gitdir).read(blob);
  expect(catFileProcesses()).toHaveLength(1);
  readers.close();
  await until(() => catFileProcesses().length === 0);
  await expect(readers.of(gitdir).read(blob)).rejects.toThrow(/store is closed/);
  expect(catFileProcesses()).toEqual([]);
});
