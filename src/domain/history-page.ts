import type { ArtifactMeta, HistoryEntry } from '../store/types.js';
import { changeDiff } from './history.js';
import { messageFacts } from './message-facts.js';
import type { DomainContext } from './ports.js';
import type { Scope } from './scope.js';
import type { ChangeSummary, HistoryPage, HistoryQuery } from './types.js';

const MAX_PAGE = 100;
const FIRST_LINES = 3;
const LINE_CHARS = 160;
/** How much of an unchanged start is kept before the first difference of a changed line. */
const LEAD_CHARS = 24;
/** Lines up to about this long are seen whole in a list, so they are never cut at the start. */
const SHOWN_CHARS = 60;

/** What a reviewer reads of a change in a list: its first changed lines, what it undid, the author's summary. */
export async function changeSummary(
  deps: DomainContext,
  scope: Scope,
  entry: HistoryEntry,
  meta: ArtifactMeta,
): Promise<ChangeSummary> {
  const firstLines: ChangeSummary['firstLines'][number][] = [];
  for (const line of (await changeDiff(deps, scope, entry, meta)).split('\n')) {
    if (firstLines.length >= FIRST_LINES) break;
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    const kind = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : undefined;
    if (kind && line.slice(1).trim()) firstLines.push({ kind, text: line.slice(1) });
  }
  return { ...entry, firstLines: aroundFirstDifference(firstLines), ...messageFacts(entry.message) };
}

/**
 * A line changed in its middle reads the same as its old self for a whole excerpt's width: a
 * removed line followed by its replacement both start a little before their first difference.
 */
function aroundFirstDifference(lines: ChangeSummary['firstLines'][number][]): ChangeSummary['firstLines'] {
  const cut = (text: string, from: number) => (from > 0 ? `…${text.slice(from)}` : text).slice(0, LINE_CHARS);
  return lines.map((line, i) => {
    const other = line.kind === 'del' ? lines[i + 1] : lines[i - 1];
    if (!other || other.kind === line.kind) return { ...line, text: cut(line.text, 0) };
    let same = 0;
    while (same < line.text.length && line.text[same] === other.text[same]) same++;
    const from =
      same > LEAD_CHARS && line.text.length > SHOWN_CHARS ? line.text.lastIndexOf(' ', same - LEAD_CHARS / 2) + 1 : 0;
    return { ...line, text: cut(line.text, from) };
  });
}

function matches(entry: HistoryEntry, query: HistoryQuery): boolean {
  const author = query.author?.trim().toLowerCase();
  if (author && !entry.author.name.toLowerCase().includes(author) && !entry.author.email.toLowerCase().includes(author))
    return false;
  if (query.client && (entry.client ?? '').toLowerCase() !== query.client.trim().toLowerCase()) return false;
  const day = entry.authoredAt.slice(0, 10);
  if (query.since && day < query.since) return false;
  if (query.until && day > query.until) return false;
  return true;
}

/** One page of `entries` (newest first) after the cursor's commit; `next` when more match. */
function pageOf(
  entries: readonly HistoryEntry[],
  query: HistoryQuery,
  exhausted: boolean,
): { page: HistoryEntry[]; next?: string; complete: boolean } {
  const limit = Math.min(Math.max(1, Math.floor(query.limit)), MAX_PAGE);
  let start = 0;
  if (query.cursor) {
    const at = entries.findIndex((e) => e.commit === query.cursor);
    if (at < 0) return { page: [], complete: exhausted };
    start = at + 1;
  }
  const page: HistoryEntry[] = [];
  for (let i = start; i < entries.length; i++) {
    if (!matches(entries[i]!, query)) continue;
    if (page.length === limit) return { page, next: page.at(-1)!.commit, complete: true };
    page.push(entries[i]!);
  }
  return { page, complete: exhausted };
}

async function summarized(
  deps: DomainContext,
  scope: Scope,
  page: readonly HistoryEntry[],
  next?: string,
): Promise<HistoryPage> {
  const entries = await Promise.all(
    page.map(async (entry) => {
      const meta = await deps.store.meta(scope.orgId, entry.artifactId);
      // The feed outlives what it lists: a deleted artifact's file, and so its diffs, are gone
      // from `main`, but who changed it and when still belong in the organization's activity.
      if (!meta) return { ...entry, firstLines: [], deleted: true as const, ...messageFacts(entry.message) };
      return changeSummary(deps, scope, entry, meta);
    }),
  );
  return { entries, ...(next ? { next } : {}) };
}

/** An artifact's history, newest first, filtered and paginated by cursor. */
export async function artifactHistoryPage(
  deps: DomainContext,
  scope: Scope,
  id: string,
  query: HistoryQuery,
): Promise<HistoryPage> {
  const meta = await scope.readable(id);
  const { page, next } = pageOf(await deps.store.history(scope.orgId, meta.id), query, true);
  return summarized(deps, scope, page, next);
}

/**
 * The organization's readable changes, newest first, filtered and paginated by cursor. Reads a
 * window of the newest entries and widens it only until the page is full or history ends.
 */
export async function activityPage(deps: DomainContext, scope: Scope, query: HistoryQuery): Promise<HistoryPage> {
  const workspaceIds = await scope.readableWorkspaceIds();
  for (let window = Math.max(query.limit, 1) * 4; ; window *= 4) {
    const newest = await deps.store.activity(scope.orgId, { limit: window, workspaceIds });
    const exhausted = newest.length < window;
    const result = pageOf(newest, query, exhausted);
    if (result.complete || exhausted) return summarized(deps, scope, result.page, result.next);
  }
}
