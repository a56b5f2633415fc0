import { setImmediate as nextTurn } from 'node:timers/promises';
import { SpecbaseError } from '../../errors.js';
import { countLineChangesOffLoop } from '../../patch/index.js';
import { parseCommitMessage, parseRepositoryFile, type ParsedMessage, type RepositoryFile } from '../layout/index.js';
import {
  isoSeconds,
  recordArtifactChange,
  recordArtifactRemoval,
  recordMove,
  renamesIn,
  type OrgState,
} from '../catalog/index.js';
import {
  BlobBatch,
  changedFiles,
  firstParentHistory,
  readBlobText,
  readCommitObject,
  TreeCache,
  type CommitObject,
  type FileChange,
  type HistoryStep,
  type Repo,
} from '../git/index.js';
import type { ArtifactMeta, ChangeVerb, CommitResult } from '../types.js';
import type { BodyCache } from './org-handle.js';
import type { ColdFeed } from './cold-feed.js';

/** A file as a caller parsed it (see FileReader): its blob's text at `path`. */
export interface ParsedFile {
  readonly path: string;
  readonly file: RepositoryFile;
}

/** The commits up to `tip` as a caller already read them (a push's checks), and the files it parsed, by blob. */
export interface KnownCommits {
  readonly tip: string;
  readonly history: readonly HistoryStep[];
  readonly parsed: ReadonlyMap<string, ParsedFile>;
}

/**
 * Files read ahead of the one being applied (`window`): native git in bulk keeps a deep pipe
 * busy. Native reads are asked for once `refillAt` places in the window are free, not one per
 * file applied: each request to the loose object reader's thread is a message and a wake-up.
 */
const READ_AHEAD = { batch: { window: 512, refillAt: 256 }, inProcess: { window: 16, refillAt: 1 } } as const;
/** Files applied between turns of the event loop: each costs a parse and a line count. */
const YIELD_EVERY = 16;
const decoder = new TextDecoder('utf-8');

/** Reads files for a walk: ahead of the one being applied, each version parsed once. */
class FileReader {
  private readonly texts = new Map<string, Promise<string>>();
  private queue: readonly string[] = [];
  private queued = 0;
  private readonly ahead: { readonly window: number; readonly refillAt: number };

  constructor(
    private readonly repo: Repo,
    private readonly bodies: BodyCache,
    /** Native git for a walk from the root; isomorphic-git for the few commits of a catch-up. */
    private readonly batch?: BlobBatch,
    /** Files a caller already read and parsed, by blob: neither read nor parsed again. */
    private readonly given: ReadonlyMap<string, ParsedFile> = new Map(),
  ) {
    this.ahead = batch ? READ_AHEAD.batch : READ_AHEAD.inProcess;
  }

  private read(oid: string): Promise<string> {
    return this.batch ? this.batch.read(oid).then((data) => decoder.decode(data)) : readBlobText(this.repo, oid);
  }

  /** The files about to be applied, in order: read ahead, at most `window` of them waiting. */
  readAhead(oids: readonly string[]): void {
    this.queue = this.given.size === 0 ? oids : oids.filter((oid) => !this.given.has(oid));
    this.queued = 0;
    this.fill();
  }

  private fill(): void {
    const { window, refillAt } = this.ahead;
    if (window - this.texts.size < refillAt) return;
    while (this.queued < this.queue.length && this.texts.size < window) void this.text(this.queue[this.queued++]!);
  }

  private text(oid: string): Promise<string> {
    let text = this.texts.get(oid);
    if (!text) {
      text = this.read(oid);
      // A read that fails is reported to the walk when it gets there, not as an unhandled rejection.
      text.catch(() => undefined);
      this.texts.set(oid, text);
    }
    return text;
  }

  /** A file another writer broke is kept at its last good state; reading it reports the problem. */
  async parsed(oid: string, path: string): Promise<RepositoryFile | undefined> {
    const given = this.given.get(oid);
    if (given?.path === path) {
      if (given.file.kind === 'artifact') this.bodies.set(oid, given.file.body);
      return given.file;
    }
    const text = this.texts.get(oid);
    this.texts.delete(oid);
    this.fill();
    try {
      const file = parseRepositoryFile(await (text ?? this.read(oid)), path);
      if (file.kind === 'artifact') this.bodies.set(oid, file.body);
      return file;
    } catch (error) {
      if (error instanceof SpecbaseError) return undefined;
      throw error;
    }
  }

  async body(oid: string, path: string): Promise<string> {
    const cached = this.bodies.get(oid);
    if (cached !== undefined) return cached;
    const file = await this.parsed(oid, path);
    return file?.kind === 'artifact' ? file.body : '';
  }
}

/** A commit's message parsed once, however many files it changed (the first of a seeded repository: all of them). */
const parsedMessages = new WeakMap<CommitObject, ParsedMessage>();
function messageOf(commit: CommitObject): ParsedMessage {
  let parsed = parsedMessages.get(commit);
  if (!parsed) {
    parsed = parseCommitMessage(commit.message);
    parsedMessages.set(commit, parsed);
  }
  return parsed;
}

/** Verbs of commits that change a whole subtree: each of its files changed that way, not only the one the trailer names. */
const SUBTREE_VERBS: ReadonlySet<ChangeVerb> = new Set(['restore', 'move']);

/**
 * Commits the store made say what they did (`Edit requirement: …` and the `Artifact-Id` or
 * `Folder-Id` trailer); a commit made by hand (an engineer's push) may start with any word,
 * "Move the intro up" included, so its verb is never read from its subject.
 */
const isSpecbaseCommit = (message: ParsedMessage): boolean =>
  message.trailers.has('Artifact-Id') || message.trailers.has('Folder-Id');

/** The client a commit names in its trailer; one made by hand came through git (a push, a commit in the repository). */
const clientOf = (message: ParsedMessage): string | undefined =>
  message.trailers.get('Client') ?? (isSpecbaseCommit(message) ? undefined : 'git');

/**
 * What a commit made by hand did to an artifact, seen from the file: a new id is a create (a
 * restore when the id had a history: its file came back), another parent or workspace a move,
 * anything else an edit.
 */
function inferredVerb(
  state: OrgState,
  fm: { readonly id: string; readonly parent: string | null; readonly workspace: string },
  previous: ArtifactMeta | undefined,
): ChangeVerb {
  if (!previous) return state.byArtifact.has(fm.id) ? 'restore' : 'create';
  return previous.parentId !== fm.parent || previous.workspaceId !== fm.workspace ? 'move' : 'edit';
}

/** A known artifact's file removed: a delete, whoever made it (see recordArtifactRemoval). */
async function removeArtifact(
  files: FileReader,
  state: OrgState,
  id: string,
  oid: string,
  commit: CommitObject,
  change: FileChange,
): Promise<CommitResult | undefined> {
  const before = change.before ? await files.body(change.before, change.path) : '';
  const { removed } = await countLineChangesOffLoop(before, '', false);
  const client = clientOf(messageOf(commit));
  return recordArtifactRemoval(state, id, {
    commit: oid,
    parent: commit.parent[0] ?? null,
    author: commit.author,
    authoredAt: isoSeconds(commit.author.timestamp),
    message: commit.message,
    ...(client ? { client } : {}),
    removed,
  });
}

async function applyFileChange(
  files: FileReader,
  state: OrgState,
  oid: string,
  commit: CommitObject,
  change: FileChange,
  deleted: ReadonlySet<string>,
): Promise<CommitResult | undefined> {
  const knownId = state.idOfPath.get(change.path);
  if (!change.after) {
    // A record that moved in this commit no longer has this path and stays.
    if (knownId && state.metas.get(knownId)?.path === change.path)
      return removeArtifact(files, state, knownId, oid, commit, change);
    else if (knownId && state.folders.get(knownId)?.path === change.path) state.removeFolder(knownId);
    else state.idOfPath.delete(change.path);
    return undefined;
  }
  const file = await files.parsed(change.after, change.path);
  if (!file) {
    if (knownId && state.metas.has(knownId)) state.setBlob(knownId, change.after);
    return undefined;
  }
  const fm = file.frontmatter;
  if (knownId && knownId !== fm.id) return undefined;
  if (file.kind === 'folder') {
    state.setFolder({
      id: fm.id,
      name: file.frontmatter.name,
      parentId: fm.parent,
      workspaceId: fm.workspace,
      path: change.path,
      createdAt: fm.created,
    });
    return undefined;
  }
  const previous = state.metas.get(fm.id);
  const earlierBlob = previous && previous.path !== change.path ? state.blobs.get(fm.id) : change.before;
  if (previous && previous.path !== change.path) {
    // Moved and changed in one commit: a move, then an edit. A second file with a known id
    // whose first file stays is not that artifact.
    if (!deleted.has(previous.path)) return undefined;
    recordMove(state, fm.id, previous.path, change.path);
  }
  const before = previous && earlierBlob ? await files.body(earlierBlob, previous.path) : '';
  const lines = await countLineChangesOffLoop(before, file.body, false);
  const message = messageOf(commit);
  const verb =
    message.verb &&
    isSpecbaseCommit(message) &&
    (message.trailers.get('Artifact-Id') === fm.id || SUBTREE_VERBS.has(message.verb))
      ? message.verb
      : inferredVerb(state, fm, previous);
  const client = clientOf(message);
  return recordArtifactChange(state, {
    commit: oid,
    parent: commit.parent[0] ?? null,
    blob: change.after,
    verb,
    id: fm.id,
    type: file.frontmatter.type,
    parentId: fm.parent,
    workspaceId: fm.workspace,
    title: file.frontmatter.title,
    ...(file.frontmatter.requirementType ? { requirementType: file.frontmatter.requirementType } : {}),
    path: change.path,
    createdAt: fm.created,
    author: commit.author,
    authoredAt: isoSeconds(commit.author.timestamp),
    message: commit.message,
    ...(client ? { client } : {}),
    ...lines,
    body: file.body,
  });
}

/**
 * Brings `state` from its head to `target` along first parents, reading each commit's changed
 * files once. From an empty state (a first start, a rebuild), and for a long catch-up (a push of
 * many commits), the history comes from native git in bulk (`git log --raw`, `git cat-file
 * --batch`); a catch-up of a few commits reads objects in process, and one a caller has already
 * read (`known`) is not read again. Returns 'diverged' when `target` does not descend from the
 * state's head (history was rewritten): the caller then starts from an empty state. `applied` hears each commit's
 * changes once the state is at that commit, so that listeners follow a long catch-up as it goes.
 */
export async function advanceTo(
  repo: Repo,
  state: OrgState,
  target: string,
  options: {
    applied?: (results: CommitResult[]) => void;
    bodies: BodyCache;
    feed?: ColdFeed | undefined;
    /** The commits from the head to `target` as a caller already read them, and the files it parsed. */
    known?: KnownCommits | undefined;
  },
): Promise<'applied' | 'diverged'> {
  const fromRoot = state.head === null;
  const history = options.known?.history;
  const known = history?.[0]?.commit.parent[0] === state.head && history.at(-1)?.oid === target;
  const short = known ? history : fromRoot ? undefined : await chainTo(repo, state.head!, target);
  const native = short === undefined || short.length > IN_PROCESS_COMMITS;
  const chain = short ?? (await nativeChain(repo, state.head, target));
  if (chain === 'diverged') return 'diverged';
  // Parsing a whole history's log took tens of milliseconds at 10,000 artifacts: no more in one turn.
  if (fromRoot) await nextTurn();
  const feed = fromRoot ? options.feed : undefined;
  const targetBlobs = feed ? blobsAtTarget(chain) : new Set<string>();
  if (feed) await nextTurn();
  const trees = new TreeCache();
  const batch = native ? new BlobBatch(repo.gitdir) : undefined;
  const files = new FileReader(repo, options.bodies, batch, known ? options.known?.parsed : undefined);
  try {
    for (const { oid: commitOid, commit, changes: listed } of chain) {
      const changes = (listed ?? (await changedFiles(repo, state.rootTree, commit.tree, trees))).filter((c) =>
        c.path.endsWith('.md'),
      );
      // Files are added before any is deleted, so that a file that moved is seen as one record.
      changes.sort((a, b) => Number(!a.after) - Number(!b.after));
      const renames = renamesIn(state, changes);
      const deleted = new Set(changes.flatMap((c) => (c.after ? [] : [c.path])));
      // Sorting and matching a seeded repository's first commit (every file) takes a turn of its own.
      if (changes.length > YIELD_EVERY) await nextTurn();
      files.readAhead(changes.flatMap((c) => (c.after && !renames.has(c.after) ? [c.after] : [])));
      const results: CommitResult[] = [];
      for (const [i, change] of changes.entries()) {
        // Files read ahead parse without a turn of the event loop: a big commit yields now and then.
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
        const from = change.after ? renames.get(change.after) : undefined;
        const moved = from !== undefined && recordMove(state, state.idOfPath.get(from) ?? '', from, change.path);
        const result = moved ? undefined : await applyFileChange(files, state, commitOid, commit, change, deleted);
        if (result && options.applied) results.push(result);
        if (result && change.after && targetBlobs.has(change.after))
          feed?.push({ record: result.artifact, blob: change.after });
      }
      state.moveTo(commitOid, commit.tree);
      if (results.length > 0) options.applied?.(results);
    }
  } finally {
    batch?.close();
  }
  return 'applied';
}

/** The blobs of the files at the walk's last commit, known from the changes alone. */
function blobsAtTarget(chain: readonly Pick<Partial<HistoryStep>, 'changes'>[]): Set<string> {
  const files = new Map<string, string>();
  for (const step of chain) {
    for (const change of step.changes ?? []) {
      if (change.after) files.set(change.path, change.after);
      else files.delete(change.path);
    }
  }
  return new Set(files.values());
}

/**
 * Commits read in process one by one before a catch-up turns to native git: a few commits (an
 * edit of another replica) cost less than starting git; a long run of them (a push of hundreds)
 * cost a tree diff each through isomorphic-git, several times what one `git log --raw` costs.
 */
const IN_PROCESS_COMMITS = 16;

/**
 * The commits after `head` up to `target` along first parents, oldest first; 'diverged' when
 * `head` is not on that line; undefined when there are more than IN_PROCESS_COMMITS.
 */
async function chainTo(
  repo: Repo,
  head: string,
  target: string,
): Promise<{ oid: string; commit: CommitObject; changes?: undefined }[] | 'diverged' | undefined> {
  const chain: { oid: string; commit: CommitObject }[] = [];
  let oid: string | undefined = target;
  while (oid && oid !== head) {
    if (chain.length === IN_PROCESS_COMMITS) return undefined;
    const commit = await readCommitObject(repo, oid);
    chain.push({ oid, commit });
    oid = commit.parent[0];
  }
  return oid ? chain.reverse() : 'diverged';
}

/** The same walk by one `git log --raw` (from the root when `head` is null), each commit with its changed files. */
async function nativeChain(repo: Repo, head: string | null, target: string): Promise<HistoryStep[] | 'diverged'> {
  if (head === null) return firstParentHistory(repo.gitdir, target);
  const steps = await firstParentHistory(repo.gitdir, target, head);
  return steps[0]?.commit.parent[0] === head ? steps : 'diverged';
}
