/**
 * Typed errors raised anywhere below the edges. Each edge (MCP tools, HTTP routes, CLI)
 * translates them in one place; nothing inside formats responses.
 */
export abstract class SpecbaseError extends Error {
  abstract readonly code: string;
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Invalid id, unknown id, or an artifact in a workspace the user cannot read: never tell which. */
export class NotFoundError extends SpecbaseError {
  static readonly code = 'not_found';
  readonly code = NotFoundError.code;
  constructor(what = 'artifact', data: Record<string, unknown> = {}) {
    super(`${what} not found`, data);
  }
}

/**
 * A "not found" that says more to someone who may know it: which argument named nothing, or
 * that the artifact was deleted. Every edge that does not know better answers it as "not found";
 * the tools' sentence starts "artifact not found" as the specification says, then explains.
 */
export class ExplainedNotFoundError extends NotFoundError {
  constructor(
    readonly explanation: string,
    data: Record<string, unknown> = {},
    what: 'artifact' | 'folder' | 'change' = 'artifact',
  ) {
    super(what, data);
    this.message = `${what} not found: ${explanation}`;
  }
}

/**
 * An id of a deleted artifact, asked by someone who may read its workspace: when, by whom, and
 * how to bring it back. It is still "not found" (a deleted artifact is gone everywhere).
 */
export class DeletedArtifactError extends ExplainedNotFoundError {
  constructor(deleted: {
    readonly id: string;
    readonly deletedAt: string;
    readonly deletedBy: { readonly name: string };
    readonly commit: string;
    readonly named: boolean;
  }) {
    const restore = deleted.named
      ? `restore it with specbase_restore_artifact (artifactId ${deleted.id}; a manage tool: X-Specbase-Tools: +manage) or on the web application's Deleted page`
      : 'it went with a deleted parent: restore that one (specbase_restore_artifact or the Deleted page) and it comes back too';
    super(
      `${deleted.id} was deleted at ${deleted.deletedAt} by ${deleted.deletedBy.name} (commit ${deleted.commit.slice(0, 12)}); ${restore}`,
      { deletedAt: deleted.deletedAt, commit: deleted.commit },
    );
  }
}

/**
 * An id of another artifact type than the one asked for. Raised only when the caller may read
 * that artifact, so it tells nothing the caller could not learn; still a "not found" to every
 * edge that does not know better.
 */
export class WrongTypeError extends NotFoundError {
  constructor(
    readonly id: string,
    readonly actualType: string,
    readonly expectedType: string,
  ) {
    super('artifact', { id, actualType, expectedType });
    this.message = `artifact ${id} is of type ${actualType}, not ${expectedType}`;
  }
}

export class PermissionDeniedError extends SpecbaseError {
  static readonly code = 'permission_denied';
  readonly code = PermissionDeniedError.code;
  constructor(message = 'permission denied', data: Record<string, unknown> = {}) {
    super(message, data);
  }
}

/**
 * A tool this connection does not offer: it is read-only, or asked for a subset of the tools.
 * Unlike a permission on an artifact, nothing is hidden by saying why: the message teaches.
 */
export class ToolNotOfferedError extends SpecbaseError {
  static readonly code = 'tool_not_offered';
  readonly code = ToolNotOfferedError.code;
}

/**
 * A token or an assistant's authorization that an admin of this organization blocked here. It is
 * its user's and still works in their other organizations: the message says so.
 */
export class CredentialBlockedError extends PermissionDeniedError {
  constructor(kind: 'token' | 'grant') {
    const what = kind === 'token' ? 'this personal access token is' : "this assistant's authorization is";
    super(`${what} blocked in this organization by an organization admin; it still works in your other organizations`, {
      reason: 'credential_blocked',
    });
  }
}

export class InvalidInputError extends SpecbaseError {
  static readonly code = 'invalid_input';
  readonly code = InvalidInputError.code;
}

export class PayloadTooLargeError extends SpecbaseError {
  static readonly code = 'payload_too_large';
  readonly code = PayloadTooLargeError.code;
  constructor(what: string, limitBytes: number, actualBytes: number) {
    super(`${what} is ${actualBytes} bytes; the limit is ${limitBytes} bytes`, { limitBytes, actualBytes });
  }
}

/**
 * A per-user limit was reached (sessions, tool calls, sign-in attempts). The message says what
 * to do; `retryAfterSeconds`, when known, is when trying again will work.
 */
export class LimitExceededError extends SpecbaseError {
  static readonly code = 'rate_limited';
  readonly code = LimitExceededError.code;
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
  }
}

/** A patch that does not apply. `message` is written for the model that sent the patch. */
export class PatchError extends SpecbaseError {
  static readonly code = 'patch_failed';
  readonly code = PatchError.code;
  constructor(
    message: string,
    readonly details: {
      hunk?: number;
      reason:
        | 'not_a_diff'
        | 'multiple_files'
        | 'too_many_hunks'
        | 'too_costly'
        | 'no_change'
        | 'no_match'
        | 'ambiguous'
        | 'overlap';
      nearest?: { line: number; text: string }[];
    },
  ) {
    super(message, details);
  }
}

/** The user, asked through their client (elicitation), said no: nothing was done. */
export class DeclinedError extends SpecbaseError {
  static readonly code = 'declined';
  readonly code = DeclinedError.code;
}

/** The document moved on (stale baseVersion, revert that no longer applies, lost ref race). */
/** One rule a pushed commit broke: which commit, which file (absent for the push as a whole), and the rule in a sentence. */
export interface PushRefusal {
  readonly commit?: string;
  readonly path?: string;
  readonly rule: string;
}

/** A `git push` refused as a whole: nothing moved. Each refusal names the commit, the file and the rule. */
export class PushRefusedError extends SpecbaseError {
  static readonly code = 'push_refused';
  readonly code = PushRefusedError.code;
  constructor(readonly refusals: readonly PushRefusal[]) {
    super(refusals.map(describeRefusal).join('\n'), { refusals });
  }
}

const describeRefusal = (r: PushRefusal): string =>
  [r.commit ? `commit ${r.commit.slice(0, 10)}` : '', r.path ?? '', r.rule].filter(Boolean).join(': ');

export class ConflictError extends SpecbaseError {
  static readonly code = 'conflict';
  readonly code = ConflictError.code;
}

/** A file both `main` and a change request changed, which the merge will not guess at. */
export interface MergeConflict {
  readonly path: string;
  readonly artifactId?: string;
  readonly title?: string;
  /** The file where the branches parted, on `main` now, and on the change request; null where it is absent. */
  readonly base: string | null;
  readonly main: string | null;
  readonly proposed: string | null;
  /** Both sides with the passages they disagree on between Git-style markers, for a person to resolve. */
  readonly withMarkers: string;
  /** Why the resolution given for it was not taken (markers left in it, not a valid file). */
  readonly refused?: string;
}

/** A merge that would overwrite a change made on `main` since the change request began. */
export class MergeConflictError extends ConflictError {
  /**
   * `mainCommit`: `main` as the conflicts were found; resolutions written against it are taken
   * only while `main` is still there (`BranchMerge.resolvedOn`).
   */
  constructor(
    readonly conflicts: readonly MergeConflict[],
    readonly mainCommit: string,
  ) {
    super(
      `${conflicts.length} file${conflicts.length === 1 ? '' : 's'} changed on main and in the change request since they parted (${conflicts
        .slice(0, 5)
        .map((c) => c.title ?? c.path)
        .join(', ')}); resolve ${conflicts.length === 1 ? 'it' : 'them'} before merging`,
      { mainCommit, conflicts: conflicts.map((c) => ({ path: c.path, artifactId: c.artifactId, title: c.title })) },
    );
  }
}

export class UnauthorizedError extends SpecbaseError {
  static readonly code = 'unauthorized';
  readonly code = UnauthorizedError.code;
}

export class OrganizationHeaderMissingError extends SpecbaseError {
  static readonly code = 'missing_organization_header';
  readonly code = OrganizationHeaderMissingError.code;
  constructor() {
    super('missing organization header: every request must carry X-Organization-Id with the organization UUID');
  }
}

export class InvalidOrganizationIdError extends SpecbaseError {
  static readonly code = 'invalid_organization_id';
  readonly code = InvalidOrganizationIdError.code;
  constructor(value: string) {
    super(`X-Organization-Id must be a valid UUID, got ${JSON.stringify(value.slice(0, 80))}`);
  }
}

export class NotOrganizationMemberError extends SpecbaseError {
  static readonly code = 'not_a_member';
  readonly code = NotOrganizationMemberError.code;
  constructor() {
    super('the authenticated user is not a member of this organization');
  }
}

/** The server cannot write: its storage is read-only or full. Nothing was written; reads still work. */
export class StorageUnavailableError extends SpecbaseError {
  static readonly code = 'storage_unavailable';
  readonly code = StorageUnavailableError.code;
}

/** Something the request waits on (the server's webhook dispatcher) did not act in time; nothing is lost, it may yet. */
export class NotYetError extends SpecbaseError {
  static readonly code = 'not_yet';
  readonly code = NotYetError.code;
}

/**
 * Error codes of storage that refuses writes (system, SQLite's extended ones, PostgreSQL's
 * SQLSTATE), and the words git and SQLite use for them. SQLite hides the system error behind
 * its own: a write to a file system the kernel turned read-only after an error is
 * SQLITE_IOERR_WRITE "disk I/O error" (only writes are matched: a failed read is no such thing).
 */
const STORAGE_FAILURES: readonly { codes: readonly string[]; pattern?: RegExp; why: string }[] = [
  {
    codes: ['EROFS', 'SQLITE_READONLY'],
    pattern: /read-only file system|attempt to write a readonly database/i,
    why: 'read-only file system',
  },
  {
    codes: ['ENOSPC', 'SQLITE_FULL', '53100'],
    pattern: /no space left on device|database or disk is full/i,
    why: 'disk full',
  },
  { codes: ['EDQUOT'], pattern: /disk quota exceeded/i, why: 'disk quota exceeded' },
  {
    codes: ['SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_DIR_FSYNC', 'SQLITE_IOERR_TRUNCATE'],
    why: 'disk I/O error',
  },
  { codes: ['25006'], why: 'read-only database' },
];

/**
 * A storage failure found in `error` (its code or message, or those of its causes), as the typed
 * error the edges answer with, e.g. "the server cannot write (read-only file system)";
 * undefined for any other error.
 */
export function storageFailureOf(error: unknown): StorageUnavailableError | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof StorageUnavailableError) return cause;
    const code = (cause as NodeJS.ErrnoException).code;
    const message = cause instanceof Error ? cause.message : '';
    const known = STORAGE_FAILURES.find(
      (failure) => (code !== undefined && failure.codes.includes(code)) || failure.pattern?.test(message),
    );
    if (known) {
      return new StorageUnavailableError(
        `the server cannot write (${known.why}); nothing was written, and reading still works. Try again later`,
        {
          reason: known.codes[0]!,
        },
      );
    }
  }
  return undefined;
}
