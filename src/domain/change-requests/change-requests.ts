import { canManage, canRead, canWrite } from '../../access/index.js';
import type { ChangeRequest, ChangeRequestState, ReviewRules } from '../../control/types.js';
import { ConflictError, NotFoundError, PermissionDeniedError, PushRefusedError, SpecbaseError } from '../../errors.js';
import { unifiedDiffOffLoop } from '../../patch/index.js';
import { isChangeRequestNumber } from '../../ids.js';
import type { BranchChanges, CommitResult, ReceivedPush } from '../../store/types.js';
import type { BranchStore, DomainDeps } from '../ports.js';
import type { Actor, PushToReceive } from '../types.js';
import { artifactUrl, changeRequestUrl } from '../urls.js';
import type {
  ChangeRequestDetailView,
  ChangeRequestFileView,
  ChangeRequestView,
  MergeAllowance,
  MergedView,
} from './views.js';

export type ChangeRequestDeps = DomainDeps & { readonly branches: BranchStore };

/** A change request one may see, and what it changes, read when first asked. */
interface Seen {
  readonly row: ChangeRequest;
  changes(): Promise<BranchChanges>;
}

/** How long review rules read from the database are trusted (see reviewRules). */
const RULES_FRESH_MS = 1_000;

const workspacesOf = (changes: BranchChanges): string[] => [
  ...new Set(changes.files.flatMap((file) => (file.workspaceId ? [file.workspaceId] : []))),
];

const checkedNumber = (number: unknown): number => {
  if (!isChangeRequestNumber(number)) throw new NotFoundError('change request');
  return number;
};

const changeContext = (actor: Actor) => ({
  author: { name: actor.principal.name, email: actor.principal.email },
  ...(actor.client ? { client: actor.client } : {}),
});

/**
 * Change requests as people and assistants use them: a branch `cr/{n}` of proposed commits and
 * a row with its title, state and thread. One may see a change request when one may read every
 * workspace it changes (its author always); one may merge it when one may write every one of
 * them, and, where a workspace says "the author cannot merge their own change", is not its author.
 */
export class ChangeRequests {
  /** Review rules as read, per organization: asked on every call of a connection, changed rarely. */
  readonly #rules = new Map<
    string,
    { readonly at: number; readonly rules: Promise<ReadonlyMap<string, ReviewRules>> }
  >();

  constructor(private readonly deps: ChangeRequestDeps) {}

  /** Its review page. */
  urlOf(orgId: string, number: number): string {
    return changeRequestUrl(this.deps.baseUrl, orgId, number);
  }

  /** Opens one at `main` now; the actor must be able to write somewhere in the organization. */
  async open(actor: Actor, input: { title: string; description?: string }): Promise<ChangeRequestView> {
    const { principal } = actor;
    const workspaces = await this.deps.control.workspaces.list(principal.orgId);
    if (!workspaces.some((w) => canWrite(principal, w.id))) {
      throw new PermissionDeniedError('permission denied: proposing changes needs a role that may edit a workspace');
    }
    const { orgId } = principal;
    const row = await this.deps.control.changeRequests.open({
      orgId,
      title: input.title,
      ...(input.description !== undefined ? { description: input.description } : {}),
      authorId: principal.userId,
      client: actor.client ?? null,
      baseCommit: '',
    });
    const baseCommit = await this.deps.branches.forkChangeRequest(orgId, row.number);
    const view = await this.view(await this.deps.control.changeRequests.update(orgId, row.number, { baseCommit }));
    await this.announce(actor, 'opened', view, []);
    return view;
  }

  async list(actor: Actor, options: { state?: ChangeRequestState } = {}): Promise<ChangeRequestView[]> {
    const rows = await this.deps.control.changeRequests.list(actor.principal.orgId, options);
    const visible = await Promise.all(rows.map(async (row) => ((await this.visibleTo(actor, row)) ? row : undefined)));
    return Promise.all(visible.filter((row): row is ChangeRequest => row !== undefined).map((row) => this.view(row)));
  }

  /** The row, if the actor may see it; NotFoundError otherwise (its existence is not told). */
  async get(actor: Actor, number: number): Promise<ChangeRequest> {
    return (await this.seen(actor, number)).row;
  }

  /**
   * The row, if the actor may see it, and what it changes: read from Git at most once per call
   * (deciding who may see it reads it already for all but its author).
   */
  private async seen(actor: Actor, number: number): Promise<Seen> {
    const row = await this.deps.control.changeRequests.get(actor.principal.orgId, checkedNumber(number));
    if (!row) throw new NotFoundError('change request');
    return this.seenRow(actor, row);
  }

  private async seenRow(actor: Actor, row: ChangeRequest): Promise<Seen> {
    let changes: Promise<BranchChanges> | undefined;
    const changesOnce = () => (changes ??= this.changesOf(row));
    if (row.authorId !== actor.principal.userId) {
      const read = await changesOnce().catch(() => undefined);
      if (!read || !workspacesOf(read).every((w) => canRead(actor.principal, w))) {
        throw new NotFoundError('change request');
      }
    }
    return { row, changes: changesOnce };
  }

  /** As seen, for one still open. */
  private async seenOpen(actor: Actor, number: number): Promise<Seen> {
    const seen = await this.seen(actor, number);
    if (seen.row.state !== 'open') {
      throw new ConflictError(
        `change request ${seen.row.number} is ${seen.row.state}; open a new one to propose more changes`,
      );
    }
    return seen;
  }

  async summary(actor: Actor, number: number): Promise<ChangeRequestView> {
    return this.view(await this.get(actor, number));
  }

  async detail(actor: Actor, number: number): Promise<ChangeRequestDetailView> {
    const seen = await this.seen(actor, number);
    const { row } = seen;
    const changes = await seen.changes();
    const [view, files, comments, merge] = await Promise.all([
      this.view(row),
      Promise.all(changes.files.map((file) => fileView(file))),
      this.deps.control.changeRequests.comments(row.orgId, row.number),
      this.mergeAllowance(actor, row, changes),
    ]);
    const names = await this.names(comments.map((c) => c.authorId));
    return {
      ...view,
      base: changes.base,
      tip: changes.tip,
      files,
      commits: changes.commits,
      comments: comments.map((c) => ({
        id: c.id,
        author: c.authorId ? { id: c.authorId, name: names.get(c.authorId) ?? 'former member' } : null,
        body: c.body,
        createdAt: c.createdAt,
      })),
      merge,
    };
  }

  /** An open change request the actor may add commits to (anyone who may see it; each write checks its workspace). */
  async writable(actor: Actor, number: number): Promise<ChangeRequest> {
    return (await this.seenOpen(actor, number)).row;
  }

  /**
   * A proposal landed on it: its time moves, and webhooks hear `change_request.updated`, for the
   * workspace of the artifact written (not a diff of the whole branch: this runs on every write).
   */
  async updated(actor: Actor, number: number, artifactId?: string): Promise<void> {
    const { orgId } = actor.principal;
    const row = await this.deps.control.changeRequests.update(orgId, number, {});
    const key = this.deps.branches.changeRequestKey(orgId, number);
    const written = artifactId ? await this.deps.store.meta(key, artifactId).catch(() => undefined) : undefined;
    await this.announce(actor, 'updated', await this.view(row), written ? [written.workspaceId] : []);
  }

  /** The author says it is ready: a summary becomes its description. */
  async submit(actor: Actor, number: number, summary?: string): Promise<ChangeRequestView> {
    const seen = await this.seenOpen(actor, number);
    const { row } = seen;
    await this.assertMayAdminister(actor, seen);
    const updated = await this.deps.control.changeRequests.update(row.orgId, row.number, {
      submitted: true,
      ...(summary !== undefined && summary.trim() ? { description: summary } : {}),
    });
    return this.view(updated);
  }

  async comment(actor: Actor, number: number, body: string) {
    const row = await this.get(actor, number);
    return this.deps.control.changeRequests.comment({
      orgId: row.orgId,
      number: row.number,
      authorId: actor.principal.userId,
      body,
    });
  }

  /**
   * Brings it onto `main` (see GitStore.mergeChangeRequest): refused while it changes nothing,
   * when the actor may not merge it, and on conflicts until each is resolved. Then it is
   * ordinary history: the index follows, and webhooks hear of each artifact and of the merge.
   * `resolvedOn` is `main` as the conflicts were shown (MergeConflictError.mainCommit): if it
   * moved since, the resolutions are set aside and the conflicts raised again.
   */
  async merge(
    actor: Actor,
    number: number,
    resolutions?: ReadonlyMap<string, string>,
    resolvedOn?: string,
  ): Promise<MergedView> {
    const seen = await this.seenOpen(actor, number);
    const { row } = seen;
    const changes = await seen.changes();
    const allowance = await this.mergeAllowance(actor, row, changes);
    if (!allowance.allowed) throw new PermissionDeniedError(`permission denied: ${allowance.reason}`);
    const message = `Merge change request ${row.number}: ${row.title}\n\nChange-Request: ${row.number}\n`;
    const outcome = await this.deps.branches.mergeChangeRequest(
      row.orgId,
      row.number,
      { message, ...(resolutions ? { resolutions } : {}), ...(resolvedOn ? { resolvedOn } : {}) },
      changeContext(actor),
    );
    const merged = await this.deps.control.changeRequests.transition({
      orgId: row.orgId,
      number: row.number,
      from: 'open',
      to: 'merged',
      by: actor.principal.userId,
      mergeCommit: outcome.commit,
    });
    for (const result of outcome.results) await this.announceArtifact(row.orgId, result);
    const view = await this.view(merged);
    await this.announce(actor, 'merged', view, workspacesOf(changes));
    const titles = new Map(outcome.results.map((r) => [r.artifact.id, r.artifact.title]));
    return {
      changeRequest: view,
      kind: outcome.kind,
      commit: outcome.commit,
      artifacts: [...titles].map(([id, title]) => ({ id, title, url: artifactUrl(this.deps.baseUrl, row.orgId, id) })),
    };
  }

  async close(actor: Actor, number: number): Promise<ChangeRequestView> {
    return this.move(actor, number, 'open', 'closed');
  }

  async reopen(actor: Actor, number: number): Promise<ChangeRequestView> {
    return this.move(actor, number, 'closed', 'open');
  }

  /** The open draft the actor writes through this client (not yet submitted), if any. */
  async draftOf(actor: Actor): Promise<ChangeRequest | undefined> {
    const { orgId, userId } = actor.principal;
    return this.deps.control.changeRequests.draftOf(orgId, userId, actor.client ?? null);
  }

  /**
   * Each workspace's review rules. Read at most once a second per organization: a rule set in
   * this process applies at once, one set through another replica within that second.
   */
  async reviewRules(actor: Actor): Promise<ReadonlyMap<string, ReviewRules>> {
    const { orgId } = actor.principal;
    let known = this.#rules.get(orgId);
    if (!known || Date.now() - known.at > RULES_FRESH_MS) {
      known = { at: Date.now(), rules: this.deps.control.changeRequests.reviewRules(orgId) };
      known.rules.catch(() => this.#rules.delete(orgId));
      this.#rules.set(orgId, known);
    }
    return known.rules;
  }

  /** A workspace's admin sets how its changes are reviewed. */
  async setReviewRules(actor: Actor, workspaceId: string, rules: ReviewRules): Promise<void> {
    if (!canManage(actor.principal, workspaceId)) {
      throw new PermissionDeniedError(
        'permission denied: only an admin of the workspace sets how its changes are reviewed',
      );
    }
    await this.deps.control.changeRequests.setReviewRules({
      orgId: actor.principal.orgId,
      workspaceId,
      rules,
      by: actor.principal.userId,
    });
    this.#rules.delete(actor.principal.orgId);
  }

  private async move(
    actor: Actor,
    number: number,
    from: ChangeRequestState,
    to: ChangeRequestState,
  ): Promise<ChangeRequestView> {
    const seen = await this.seen(actor, number);
    const { row } = seen;
    await this.assertMayAdminister(actor, seen);
    if (row.state !== from) throw new ConflictError(`change request ${row.number} is ${row.state}, not ${from}`);
    const moved = await this.deps.control.changeRequests.transition({
      orgId: row.orgId,
      number: row.number,
      from,
      to,
      by: actor.principal.userId,
    });
    const view = await this.view(moved);
    await this.announce(actor, to === 'closed' ? 'closed' : 'opened', view, workspacesOf(await seen.changes()));
    return view;
  }

  /**
   * A `git push` to a change request's branch (`number`), or of a new branch under `cr/`
   * (`pushedRef`), which opens one titled by its first commit. The commits are judged as a push
   * to `main` is (see GitStore.receivePush): against the branch, or for a new one against
   * `main` now, with the pusher's permissions; a new one's branch `cr/{n}` is made of the landed
   * commits once its row is, and the pushed name never exists. Nothing is announced as artifact
   * events until a merge, and the change request's own events say what happened.
   */
  async receivePush(
    actor: Actor,
    target: { readonly number: number } | { readonly pushedRef: string },
    push: PushToReceive,
  ): Promise<ReceivedPush> {
    const { orgId } = actor.principal;
    const workspaces = await this.deps.control.workspaces.list(orgId);
    const rules = {
      workspaceIds: new Set(workspaces.map((w) => w.id)),
      mayWrite: (id: string) => canWrite(actor.principal, id),
    };
    if ('number' in target) {
      // Told to the pusher as a refusal: the change request is not there, or not open.
      const row = await this.writable(actor, target.number).catch((error: unknown) => {
        throw error instanceof SpecbaseError ? new PushRefusedError([{ rule: error.message }]) : error;
      });
      const key = this.deps.branches.changeRequestKey(orgId, row.number);
      const received = await this.deps.pushes.receivePush(key, { ...push, rules });
      if (received.landed) await this.updated(actor, row.number, received.changes[0]?.result.artifact.id);
      return received;
    }
    if (push.update.new === null)
      throw new PushRefusedError([{ rule: `${target.pushedRef} does not exist; there is nothing to delete` }]);
    if (push.update.old !== null) {
      throw new PushRefusedError([
        { rule: `${target.pushedRef} is not a change request's branch: push to cr/{number}, or under a new name` },
      ]);
    }
    const base = await this.deps.branches.mainCommit(orgId);
    let opened: Promise<ChangeRequest> | undefined;
    const received = await this.deps.pushes.receivePush(orgId, {
      ...push,
      rules,
      keepRef: true,
      update: { old: base, new: push.update.new },
      accepted: (commits) => {
        opened = this.deps.control.changeRequests.open({
          orgId,
          title: commits[0]?.subject.slice(0, 200) || 'Pushed changes',
          authorId: actor.principal.userId,
          client: actor.client ?? null,
          baseCommit: base ?? '',
        });
        opened.then(
          (row) =>
            push.accepted(
              commits,
              `opened change request #${row.number}; its branch is cr/${row.number}: ${this.urlOf(orgId, row.number)}`,
            ),
          () => push.accepted(commits),
        );
      },
    });
    const row = await opened;
    if (!row) return received;
    await this.deps.branches.adoptPushedBranch(orgId, row.number, push.update.new);
    const changes = await this.deps.branches.changeRequestChanges(orgId, row.number);
    await this.announce(actor, 'opened', await this.view(row), workspacesOf(changes));
    return received;
  }

  /** Its author, or anyone who may write every workspace it changes. */
  private async assertMayAdminister(actor: Actor, { row, changes: read }: Seen): Promise<void> {
    if (row.authorId === actor.principal.userId) return;
    const changes = await read();
    if (!workspacesOf(changes).every((w) => canWrite(actor.principal, w))) {
      throw new PermissionDeniedError(
        'permission denied: only its author or an editor of every workspace it changes may do this',
      );
    }
  }

  private async mergeAllowance(actor: Actor, row: ChangeRequest, changes: BranchChanges): Promise<MergeAllowance> {
    if (row.state !== 'open') return { allowed: false, reason: `it is ${row.state}` };
    if (changes.files.length === 0) return { allowed: false, reason: 'it changes nothing yet' };
    const workspaces = workspacesOf(changes);
    if (!workspaces.every((w) => canWrite(actor.principal, w))) {
      return { allowed: false, reason: 'merging needs a role that may edit every workspace it changes' };
    }
    if (row.authorId === actor.principal.userId) {
      const rules = await this.reviewRules(actor);
      if (workspaces.some((w) => rules.get(w)?.authorCannotMerge)) {
        return {
          allowed: false,
          reason: 'its author cannot merge it: a workspace it changes needs a second person to merge (four eyes)',
        };
      }
    }
    return { allowed: true };
  }

  /**
   * What it changes: since it parted from `main`, or for a merged one since its base (main
   * holds its tip, so it parts from main there), so that it keeps its diff and its readers.
   */
  private changesOf(row: ChangeRequest): Promise<BranchChanges> {
    const from = row.state === 'merged' && row.baseCommit ? row.baseCommit : undefined;
    return this.deps.branches.changeRequestChanges(row.orgId, row.number, from);
  }

  private async visibleTo(actor: Actor, row: ChangeRequest): Promise<boolean> {
    return this.seenRow(actor, row).then(
      () => true,
      () => false,
    );
  }

  private async names(ids: readonly (string | null)[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids.filter((id): id is string => id !== null))];
    const users = await Promise.all(unique.map((id) => this.deps.control.users.get(id)));
    return new Map(users.flatMap((user) => (user ? [[user.id, user.name] as const] : [])));
  }

  private async view(row: ChangeRequest): Promise<ChangeRequestView> {
    const names = await this.names([row.authorId]);
    return {
      number: row.number,
      title: row.title,
      description: row.description,
      state: row.state,
      author: row.authorId ? { id: row.authorId, name: names.get(row.authorId) ?? 'former member' } : null,
      client: row.client,
      branch: `cr/${row.number}`,
      url: changeRequestUrl(this.deps.baseUrl, row.orgId, row.number),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      submittedAt: row.submittedAt,
      mergedAt: row.mergedAt,
      closedAt: row.closedAt,
      mergeCommit: row.mergeCommit,
    };
  }

  private async announce(
    actor: Actor,
    kind: 'opened' | 'updated' | 'merged' | 'closed',
    view: ChangeRequestView,
    workspaceIds: readonly string[],
  ): Promise<void> {
    await this.deps.changeRequestEvents?.announced({
      orgId: actor.principal.orgId,
      kind,
      changeRequest: { number: view.number, title: view.title, state: view.state, branch: view.branch, url: view.url },
      workspaceIds,
      actor: { name: actor.principal.name, email: actor.principal.email },
      client: actor.client ?? null,
      at: view.updatedAt,
    });
  }

  /** A merged commit's artifact change, announced as every write's is: by its own author. */
  private async announceArtifact(orgId: string, result: CommitResult): Promise<void> {
    const { artifact } = result;
    const history = await this.deps.store.history(orgId, artifact.id).catch(() => []);
    const kind = result.deleted ? 'delete' : history[0]?.commit === result.commit ? 'create' : 'edit';
    await this.deps.changes?.committed({
      orgId,
      kind,
      artifact: {
        id: artifact.id,
        type: artifact.type,
        title: artifact.title,
        url: artifactUrl(this.deps.baseUrl, orgId, artifact.id),
        workspaceId: artifact.workspaceId,
      },
      commit: result.commit,
      author: artifact.updatedBy,
      client: null,
      at: artifact.updatedAt,
    });
  }
}

async function fileView(file: BranchChanges['files'][number]): Promise<ChangeRequestFileView> {
  const status = file.before === null ? 'added' : file.after === null ? 'removed' : 'modified';
  const { before, after, path } = file;
  const diff = await unifiedDiffOffLoop(before ?? '', after ?? '', path);
  return {
    path,
    status,
    ...(file.artifactId ? { artifactId: file.artifactId } : {}),
    ...(file.title ? { title: file.title } : {}),
    ...(file.type ? { type: file.type } : {}),
    ...(file.workspaceId ? { workspaceId: file.workspaceId } : {}),
    before,
    after,
    diff,
  };
}
