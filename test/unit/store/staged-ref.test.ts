import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FSYNC, writeRef } from '../../../src/store/git/index.js';

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);
let gitdir: string;

beforeEach(() => {
  gitdir = mkdtempSync(path.join(tmpdir(), 'specbase-staged-ref-'));
  mkdirSync(path.join(gitdir, 'refs/heads'), { recursive: true });
  writeFileSync(path.join(gitdir, 'refs/heads/main'), `${OLD}\n`);
});
afterEach(() => rmSync(gitdir, { recursive: true, force: true }));

const main = () => readFileSync(path.join(gitdir, 'refs/heads/main'), 'utf8');
const staged = () => readdirSync(path.join(gitdir, 'specbase/staging'));

it('stages a pushed ref at once and moves it only once its objects are durable', async () => {
  let objectsLanded!: () => void;
  const objects = new Promise<void>((resolve) => (objectsLanded = resolve));
  const written = writeRef(gitdir, 'refs/heads/main', NEW, FSYNC, objects);
  // Staged before the first await: the objects' moves that follow find it written.
  expect(staged()).toHaveLength(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(main()).toBe(`${OLD}\n`);
  objectsLanded();
  await written;
  expect(main()).toBe(`${NEW}\n`);
  expect(staged()).toEqual([]);
});

it('leaves the ref as it was, and nothing staged, when the objects fail to land', async () => {
  const failure = new Error('the disk is full');
  const objects = Promise.reject(failure);
  // As the store does: the rejection is the rename's to report, once it gets there.
  objects.catch(() => undefined);
  await expect(writeRef(gitdir, 'refs/heads/main', NEW, FSYNC, objects)).rejects.toBe(failure);
  expect(main()).toBe(`${OLD}\n`);
  expect(staged()).toEqual([]);
});

it('makes the folder of a change request branch that is the first there', async () => {
  await writeRef(gitdir, 'refs/heads/cr/7', NEW, FSYNC, Promise.resolve());
  expect(readFileSync(path.join(gitdir, 'refs/heads/cr/7'), 'utf8')).toBe(`${NEW}\n`);
});
