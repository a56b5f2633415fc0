import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLooseObject, readLooseObjectUnlessBlob } from '../../../src/store/git/loose-object.js';
import { MalformedObjectError, parseCommit, parseTree } from '../../../src/store/git/object-format.js';

const TREE = 'a'.repeat(40);
const PARENT = 'b'.repeat(40);
const IDENT = 'Eve Engineer <eve@example.com> 1700000000 +0100';

/** A tree's bytes from entries given as git writes them: mode, name, id. */
const treeBytes = (...entries: [mode: string, name: string, oid: string][]) =>
  Buffer.concat(
    entries.map(([mode, name, oid]) => Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')])),
  );
const commitBytes = (headers: string, message = 'A change\n') => Buffer.from(`${headers}\n${message}`);
const refusal = (parse: () => unknown) => {
  try {
    parse();
  } catch (error) {
    if (error instanceof MalformedObjectError) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('pushed objects as git fsck reads them', () => {
  let gitdir: string;
  const cli = (args: string[], input?: string | Buffer) =>
    execFileSync('git', ['--git-dir', gitdir, ...args], {
      input,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    })
      .toString()
      .trim();
  const write = (kind: string, body: string | Buffer) =>
    cli(['hash-object', '-t', kind, '--literally', '-w', '--stdin'], body);
  const loose = (oid: string) => readLooseObject(path.join(gitdir, 'objects'), oid)!.body;

  beforeAll(async () => {
    gitdir = await mkdtemp(path.join(tmpdir(), 'specbase-object-format-'));
    cli(['init', '-q', '--bare']);
  });
  afterAll(async () => {
    await rm(gitdir, { recursive: true, force: true });
  });

  it('reads trees and commits exactly as isomorphic-git does', async () => {
    const blob = write('blob', 'hello\n');
    const inner = cli(['mktree'], `100644 blob ${blob}\tnote.md\n`);
    const tree = cli(
      ['mktree'],
      [
        `100644 blob ${blob}\ta.md`,
        `100755 blob ${blob}\trun.sh`,
        `120000 blob ${blob}\tlink`,
        `040000 tree ${inner}\tdocs`,
        `160000 commit ${PARENT}\tvendored`,
        `100644 blob ${blob}\tdocs.md`,
      ].join('\n') + '\n',
    );
    const commits = [
      `tree ${tree}\nauthor ${IDENT}\ncommitter Ana Lima <ana@example.com> 1700000100 -0530\n\nFirst\r\n\r\nwith a body\n\n\n`,
      `tree ${tree}\nparent ${PARENT}\nparent ${'c'.repeat(40)}\nauthor Zoë Ω <z@example.com> 0 +0000\ncommitter ${IDENT}\nencoding UTF-8\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\n\nMerge\n`,
      `tree ${tree}\nauthor  <> 1 -0000\ncommitter ${IDENT}\n`,
    ].map((body) => write('commit', body));
    const options = { fs, gitdir, cache: {} };
    expect(parseTree(loose(tree))).toEqual((await git.readTree({ ...options, oid: tree })).tree);
    for (const oid of commits) {
      expect(parseCommit(loose(oid))).toEqual((await git.readCommit({ ...options, oid })).commit);
    }
  });

  it("tells an object's kind from its first deflated bytes, past a block's Huffman tables; reads all but blobs whole", () => {
    const blobs = Array.from({ length: 300 }, (_, i) => write('blob', `note ${i * 7919}\n`));
    const tree = cli(['mktree'], blobs.map((oid, i) => `100644 blob ${oid}\tnote-${i}.md\n`).join(''));
    const objects = path.join(gitdir, 'objects');
    expect(readLooseObjectUnlessBlob(objects, blobs[0]!)).toEqual({ kind: 'blob' });
    expect(readLooseObjectUnlessBlob(objects, tree)).toEqual({ kind: 'tree', body: loose(tree) });
    expect(readLooseObjectUnlessBlob(objects, '0'.repeat(40))).toBeUndefined();
  });

  it('refuses trees git fsck refuses: bad modes, unsafe or empty names, the null id, disorder, duplicates', () => {
    const oid = '1'.repeat(40);
    expect(refusal(() => parseTree(treeBytes(['100664', 'a.md', oid])))).toBe(
      'a tree with an entry of mode 100664, which git does not write',
    );
    expect(refusal(() => parseTree(treeBytes(['040000', 'docs', oid])))).toBe(
      'a tree with an entry of mode 040000, which git does not write',
    );
    for (const name of ['.git', '.GIT', '.git. ', 'git~1', '.g\u200cit', '..', '.']) {
      expect(refusal(() => parseTree(treeBytes(['100644', name, oid])))).toBe(
        `a tree with an entry named "${name}", which git refuses as a path`,
      );
    }
    expect(refusal(() => parseTree(treeBytes(['100644', '', oid])))).toMatch(/which no file can have/);
    expect(refusal(() => parseTree(treeBytes(['100644', 'a/b.md', oid])))).toMatch(/which no file can have/);
    expect(refusal(() => parseTree(treeBytes(['100644', 'a.md', '0'.repeat(40)])))).toBe(
      'a tree whose entry a.md names the null object',
    );
    expect(refusal(() => parseTree(treeBytes(['100644', 'b.md', oid], ['100644', 'a.md', oid])))).toBe(
      'a tree whose entries are out of order',
    );
    expect(refusal(() => parseTree(treeBytes(['100644', 'a.md', oid], ['100644', 'a.md', oid])))).toBe(
      'a tree holding a.md twice',
    );
    // git orders a folder as its name and a slash: "docs.md" comes before the folder "docs".
    expect(refusal(() => parseTree(treeBytes(['40000', 'docs', oid], ['100644', 'docs.md', oid])))).toBe(
      'a tree whose entries are out of order',
    );
    expect(refusal(() => parseTree(treeBytes(['100644', 'docs.md', oid], ['40000', 'docs', oid])))).toBe('accepted');
    expect(refusal(() => parseTree(treeBytes(['100644', 'a.md', oid]).subarray(0, 20)))).toBe('a truncated tree');
  });

  it('refuses commits git fsck refuses: no tree, a bad parent, a missing or doubled author, a bad identity, a NUL', () => {
    expect(refusal(() => parseCommit(commitBytes(`author ${IDENT}\ncommitter ${IDENT}\n`)))).toBe(
      'a commit without a tree',
    );
    expect(
      refusal(() => parseCommit(commitBytes(`tree ${TREE}\nparent xyz\nauthor ${IDENT}\ncommitter ${IDENT}\n`))),
    ).toBe('a commit whose parent "xyz" is no object id');
    expect(refusal(() => parseCommit(commitBytes(`tree ${TREE}\ncommitter ${IDENT}\n`)))).toBe(
      'a commit without an author',
    );
    expect(
      refusal(() => parseCommit(commitBytes(`tree ${TREE}\nauthor ${IDENT}\nauthor ${IDENT}\ncommitter ${IDENT}\n`))),
    ).toBe('a commit with two authors');
    expect(refusal(() => parseCommit(commitBytes(`tree ${TREE}\nauthor ${IDENT}\n`)))).toBe(
      'a commit without a committer',
    );
    for (const ident of [
      'Eve <eve@example.com> soon +0100',
      'Eve <eve@example.com> 01700000000 +0100',
      'Eve eve@example.com 1700000000 +0100',
      '<eve@example.com> 1700000000 +0100',
      'Eve <eve@example.com> 1700000000 CET',
    ]) {
      expect(refusal(() => parseCommit(commitBytes(`tree ${TREE}\nauthor ${ident}\ncommitter ${IDENT}\n`)))).toBe(
        `a commit whose author "${ident}" is not Name <email> time zone`,
      );
    }
    expect(refusal(() => parseCommit(commitBytes(`tree ${TREE}\nauthor ${IDENT}\ncommitter ${IDENT}\nx \0\n`)))).toBe(
      'a commit with a NUL byte in its header',
    );
    expect(refusal(() => parseCommit(Buffer.from(`tree ${TREE}\nauthor ${IDENT}\ncommitter ${IDENT}`)))).toBe(
      'a commit whose header does not end',
    );
  });
});
