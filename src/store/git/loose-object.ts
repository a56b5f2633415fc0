import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { constants, inflateSync } from 'node:zlib';
import { isObjectId } from '../../ids.js';

/**
 * The bytes of blob `oid` when the repository holds it as a loose object file, in a buffer of
 * their own; undefined for anything else (packed, in an alternate, another kind of object,
 * unreadable or damaged), which git itself then answers or reports. Read whole and inflated in
 * one call, a loose object costs a fraction of what `git cat-file --batch` spends on it (three
 * opens and maps of the file per object).
 */
export function readLooseBlob(gitdir: string, oid: string): Uint8Array | undefined {
  const object = readLooseObject(path.join(gitdir, 'objects'), oid);
  // A buffer of its own, so it can move to another thread: a small Buffer may share its memory.
  return object?.kind === 'blob' ? new Uint8Array(object.body) : undefined;
}

const FANOUT = /^[0-9a-f]{2}$/;
const LOOSE_NAME = /^[0-9a-f]{38}$/;

/**
 * The loose object files under `objectsDir`, by fanout folder (`xx/` and the names of the
 * objects in it); anything else there (git's `tmp_obj_*`, `pack/`, `info/`) left out. Read in
 * place: a push's quarantine holds a few folders of a few files, where each listing as a
 * promise would be a thread pool round trip.
 */
export function looseObjectFiles(objectsDir: string): { readonly prefix: string; readonly names: string[] }[] {
  return readdirSync(objectsDir)
    .filter((name) => FANOUT.test(name))
    .map((prefix) => ({
      prefix,
      names: readdirSync(path.join(objectsDir, prefix)).filter((name) => LOOSE_NAME.test(name)),
    }));
}

export interface LooseObject {
  readonly kind: string;
  readonly body: Buffer;
}

/**
 * Object `oid` from its loose file under `objectsDir` (`<kind> <size>\0<bytes>`, deflated);
 * undefined when there is none, or it cannot be read or is damaged. Its id is not recomputed:
 * git named the file by it when writing it, and `git fsck` is what checks that.
 */
export function readLooseObject(objectsDir: string, oid: string): LooseObject | undefined {
  if (!isObjectId(oid)) return undefined;
  let object: Buffer;
  try {
    object = inflateSync(readObjectFile(path.join(objectsDir, oid.slice(0, 2), oid.slice(2))));
  } catch {
    return undefined;
  }
  return bodyOf(object);
}

/** An inflated object's kind and body, when its header says what the body is. */
function bodyOf(object: Buffer): LooseObject | undefined {
  const headerEnd = object.indexOf(0);
  if (headerEnd < 0) return undefined;
  const [kind, size] = object.toString('latin1', 0, headerEnd).split(' ');
  const body = object.subarray(headerEnd + 1);
  return kind && size === String(body.length) ? { kind, body } : undefined;
}

/**
 * Deflated bytes enough for any object's header (`<kind> <size>\0`): a block's Huffman tables
 * come before its first byte, a few hundred bytes at most.
 */
const HEADER_BYTES = 4096;

/**
 * Object `oid` from its loose file, read once: its kind from the first deflated bytes, and its
 * body inflated unless it is a blob (a pushed file may be large; it is read when asked for).
 * Undefined when there is none or it cannot be read or is damaged.
 */
export function readLooseObjectUnlessBlob(
  objectsDir: string,
  oid: string,
): { readonly kind: string; readonly body?: Buffer } | undefined {
  if (!isObjectId(oid)) return undefined;
  try {
    const file = path.join(objectsDir, oid.slice(0, 2), oid.slice(2));
    const bytes = readObjectFileHead(file);
    const header = inflateSync(bytes.subarray(0, HEADER_BYTES), { finishFlush: constants.Z_SYNC_FLUSH });
    const kind = /^(\w+) \d+\0/.exec(header.toString('latin1'))?.[1];
    if (kind === undefined || kind === 'blob') return kind && { kind };
    const object = bodyOf(inflateSync(bytes.length < scratch.length ? bytes : readFileSync(file)));
    return object?.kind === kind ? object : undefined;
  } catch {
    return undefined;
  }
}

/** Read space for one object file at a time: most loose objects are a few kilobytes deflated. */
const scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * An object file's bytes, in `scratch` when they fit (valid until the next call): an open, one
 * read and a close, where readFileSync also asks the file's size and allocates a buffer for
 * each file, a quarter more system calls on a machine where each costs about 10 µs.
 */
function readObjectFile(file: string): Buffer {
  const head = readObjectFileHead(file);
  return head.length < scratch.length ? head : readFileSync(file);
}

/** An object file's first bytes, as many as `scratch` holds (all of them when fewer), in `scratch`. */
function readObjectFileHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    return scratch.subarray(0, readSync(fd, scratch, 0, scratch.length, 0));
  } finally {
    closeSync(fd);
  }
}
