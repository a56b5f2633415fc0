import { expect, it } from 'vitest';
import { StorageUnavailableError, storageFailureOf } from '../../src/errors.js';

const errno = (code: string, message = `${code}: something failed`) => Object.assign(new Error(message), { code });

it.each([
  [errno('EROFS'), 'read-only file system'],
  [errno('ENOSPC'), 'disk full'],
  [errno('EDQUOT'), 'disk quota exceeded'],
  [new Error('git: error: unable to create temporary file: Read-only file system'), 'read-only file system'],
  [new Error('SqliteError: database or disk is full'), 'disk full'],
  [new Error('the commit failed', { cause: errno('ENOSPC') }), 'disk full'],
  [errno('SQLITE_READONLY', 'attempt to write a readonly database'), 'read-only file system'],
  [errno('SQLITE_FULL', 'database or disk is full'), 'disk full'],
  [errno('SQLITE_IOERR_WRITE', 'disk I/O error'), 'disk I/O error'],
  [errno('25006', 'cannot execute INSERT in a read-only transaction'), 'read-only database'],
  [errno('53100', 'could not extend file "base/16384/2619": No space left on device'), 'disk full'],
])('%s is the server cannot write (%s)', (error, why) => {
  const failure = storageFailureOf(error);
  expect(failure).toBeInstanceOf(StorageUnavailableError);
  expect(failure!.message).toMatch(new RegExp(`^the server cannot write \\(${why}\\); nothing was written`));
});

it('is nothing for other errors', () => {
  expect(storageFailureOf(errno('ENOENT'))).toBeUndefined();
  // A failed read is no reason to say the server cannot write.
  expect(storageFailureOf(errno('SQLITE_IOERR_READ', 'disk I/O error'))).toBeUndefined();
  expect(storageFailureOf(new Error('boom'))).toBeUndefined();
  expect(storageFailureOf('EROFS')).toBeUndefined();
});
