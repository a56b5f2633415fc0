import { ConflictError, InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type {
  ChangeRequest,
  ChangeRequestComment,
  ChangeRequestState,
  ChangeRequestStore,
  ReviewRules,
} from './change-request-types.js';
import type { Clock } from './clock.js';
import { requiredText } from './input.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';

const MAX_TITLE = 200;
const MAX_DESCRIPTION = 20_000;
const MAX_COMMENT = 20_000;
const MAX_LIST = 500;

const COLUMNS = `org_id, number, title, description, author_id, client, state, base_commit, submitted_at,
  created_at, updated_at, merged_at, merged_by, merge_commit, closed_at, closed_by`;
const NEXT_NUMBER = 'SELECT COALESCE(MAX(number), 0) + 1 AS next FROM change_requests WHERE org_id = ?';
const INSERT = `INSERT INTO change_requests (org_id, number, title, description, author_id, client, state, base_commit,
  created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`;
const GET = `SELECT ${COLUMNS} FROM change_requests WHERE org_id = ? AND number = ?`;
const LIST = `SELECT ${COLUMNS} FROM change_requests WHERE org_id = ? ORDER BY number DESC LIMIT ?`;
const LIST_IN_STATE = `SELECT ${COLUMNS} FROM change_requests WHERE org_id = ? AND state = ? ORDER BY number DESC LIMIT ?`;
const DRAFT_OF = `SELECT ${COLUMNS} FROM change_requests WHERE org_id = ? AND author_id = ? AND state = 'open'
  AND submitted_at IS NULL AND COALESCE(client, '') = ? ORDER BY number DESC LIMIT 1`;
const TOUCH = `UPDATE change_requests SET title = COALESCE(?, title), description = COALESCE(?, description),
  submitted_at = COALESCE(?, submitted_at), base_commit = COALESCE(?, base_commit), updated_at = ?
  WHERE org_id = ? AND number = ?`;
const TRANSITION = `UPDATE change_requests SET state = ?, updated_at = ?,
  merged_at = ?, merged_by = ?, merge_commit = ?, closed_at = ?, closed_by = ?
  WHERE org_id = ? AND number = ? AND state = ?`;
const INSERT_COMMENT = `INSERT INTO change_request_comments (id, org_id, number, author_id, body, created_at)
  VALUES (?, ?, ?, ?, ?, ?)`;
const COMMENTS = `SELECT id, org_id, number, author_id, body, created_at FROM change_request_comments
  WHERE org_id = ? AND number = ? ORDER BY created_at, id`;
const RULES = `SELECT r.workspace_id, r.assistant_changes_need_review, r.author_cannot_merge FROM workspace_review_rules r
  JOIN workspaces w ON w.id = r.workspace_id WHERE w.org_id = ?`;
const WORKSPACE_OF_ORG = 'SELECT 1 FROM workspaces WHERE id = ? AND org_id = ?';
const DELETE_RULES = 'DELETE FROM workspace_review_rules WHERE workspace_id = ?';
const INSERT_RULES = `INSERT INTO workspace_review_rules (workspace_id, assistant_changes_need_review, author_cannot_merge,
  updated_at, updated_by) VALUES (?, ?, ?, ?, ?)`;

interface ChangeRequestRow {
  org_id: string;
  number: number | string;
  title: string;
  description: string;
  author_id: string | null;
  client: string | null;
  state: ChangeRequestState;
  base_commit: string;
  submitted_at: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  merged_by: string | null;
  merge_commit: string | null;
  closed_at: string | null;
  closed_by: string | null;
}

const toChangeRequest = (row: ChangeRequestRow): ChangeRequest => ({
  orgId: row.org_id,
  number: Number(row.number),
  title: row.title,
  description: row.description,
  authorId: row.author_id,
  client: row.client,
  state: row.state,
  baseCommit: row.base_commit,
  submittedAt: row.submitted_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  mergedAt: row.merged_at,
  mergedBy: row.merged_by,
  mergeCommit: row.merge_commit,
  closedAt: row.closed_at,
  closedBy: row.closed_by,
});

interface CommentRow {
  id: string;
  org_id: string;
  number: number | string;
  author_id: string | null;
  body: string;
  created_at: string;
}

const toComment = (row: CommentRow): ChangeRequestComment => ({
  id: row.id,
  orgId: row.org_id,
  number: Number(row.number),
  authorId: row.author_id,
  body: row.body,
  createdAt: row.created_at,
});

const description = (value: string | undefined): string | undefined => {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (text.length > MAX_DESCRIPTION)
    throw new InvalidInputError(`the description is longer than ${MAX_DESCRIPTION} characters`);
  return text;
};

async function getIn(db: SqlQueries, orgId: string, number: number): Promise<ChangeRequest> {
  const row = await db.get<ChangeRequestRow>(GET, [orgId, number]);
  if (!row) throw new NotFoundError('change request');
  return toChangeRequest(row);
}

/** Change requests and their comments, and the review rules of workspaces, on either backend. */
export function sqlChangeRequests(db: SqlDatabase, clock: Clock): ChangeRequestStore {
  return {
    async open(input) {
      const title = requiredText(input.title, 'the change request title', MAX_TITLE);
      const text = description(input.description) ?? '';
      const now = clock().toISOString();
      return db.transaction(async (tx) => {
        const { next } = (await tx.get<{ next: number | string }>(NEXT_NUMBER, [input.orgId]))!;
        const number = Number(next);
        await tx.run(INSERT, [
          input.orgId,
          number,
          title,
          text,
          input.authorId,
          input.client ?? null,
          input.baseCommit,
          now,
          now,
        ]);
        return getIn(tx, input.orgId, number);
      });
    },
    async get(orgId, number) {
      const row = await db.get<ChangeRequestRow>(GET, [orgId, number]);
      return row && toChangeRequest(row);
    },
    async list(orgId, options = {}) {
      const limit = Math.min(Math.max(1, Math.floor(options.limit ?? 100)), MAX_LIST);
      const rows = options.state
        ? await db.all<ChangeRequestRow>(LIST_IN_STATE, [orgId, options.state, limit])
        : await db.all<ChangeRequestRow>(LIST, [orgId, limit]);
      return rows.map(toChangeRequest);
    },
    async draftOf(orgId, authorId, client) {
      const row = await db.get<ChangeRequestRow>(DRAFT_OF, [orgId, authorId, client ?? '']);
      return row && toChangeRequest(row);
    },
    async update(orgId, number, changes) {
      const title =
        changes.title === undefined ? null : requiredText(changes.title, 'the change request title', MAX_TITLE);
      const now = clock().toISOString();
      const submitted = changes.submitted ? now : null;
      const changed = await db.run(TOUCH, [
        title,
        description(changes.description) ?? null,
        submitted,
        changes.baseCommit ?? null,
        now,
        orgId,
        number,
      ]);
      if (changed !== 1) throw new NotFoundError('change request');
      return getIn(db, orgId, number);
    },
    async transition({ orgId, number, from, to, by, mergeCommit }) {
      const now = clock().toISOString();
      const merged = to === 'merged';
      const closed = to === 'closed';
      const changed = await db.run(TRANSITION, [
        to,
        now,
        merged ? now : null,
        merged ? by : null,
        merged ? (mergeCommit ?? null) : null,
        closed ? now : null,
        closed ? by : null,
        orgId,
        number,
        from,
      ]);
      if (changed === 1) return getIn(db, orgId, number);
      const current = await db.get<ChangeRequestRow>(GET, [orgId, number]);
      if (!current) throw new NotFoundError('change request');
      throw new ConflictError(`change request ${number} is ${current.state}, not ${from}`);
    },
    async comment({ orgId, number, authorId, body }) {
      const text = requiredText(body, 'the comment', MAX_COMMENT);
      const id = newId();
      const now = clock().toISOString();
      await getIn(db, orgId, number);
      await db.run(INSERT_COMMENT, [id, orgId, number, authorId, text, now]);
      return { id, orgId, number, authorId, body: text, createdAt: now };
    },
    async comments(orgId, number) {
      return (await db.all<CommentRow>(COMMENTS, [orgId, number])).map(toComment);
    },
    async reviewRules(orgId) {
      const rows = await db.all<{
        workspace_id: string;
        assistant_changes_need_review: number | string;
        author_cannot_merge: number | string;
      }>(RULES, [orgId]);
      return new Map(
        rows.map((row) => [
          row.workspace_id,
          {
            assistantChangesNeedReview: Number(row.assistant_changes_need_review) === 1,
            authorCannotMerge: Number(row.author_cannot_merge) === 1,
          } satisfies ReviewRules,
        ]),
      );
    },
    async setReviewRules({ orgId, workspaceId, rules, by }) {
      await db.transaction(async (tx) => {
        if (!(await tx.get(WORKSPACE_OF_ORG, [workspaceId, orgId]))) throw new NotFoundError('workspace');
        await tx.run(DELETE_RULES, [workspaceId]);
        await tx.run(INSERT_RULES, [
          workspaceId,
          rules.assistantChangesNeedReview ? 1 : 0,
          rules.authorCannotMerge ? 1 : 0,
          clock().toISOString(),
          by,
        ]);
      });
    },
  };
}
