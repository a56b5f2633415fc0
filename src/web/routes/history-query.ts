import type { Request } from 'express';
import { isObjectId } from '../../ids.js';
import type { HistoryQuery } from '../../domain/types.js';
import type { TimelineFilters } from '../views/timeline.js';

export const PAGE_SIZE = 25;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, 200) : undefined;
const day = (value: unknown): string | undefined =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : undefined;

/** Filters and cursor from the query string; a malformed value is simply no filter. */
export function historyQuery(req: Request): { query: HistoryQuery; filters: TimelineFilters; onFirstPage: boolean } {
  const q = req.query;
  const filters: TimelineFilters = {
    ...(text(q.author) ? { author: text(q.author) } : {}),
    ...(text(q.client) ? { client: text(q.client) } : {}),
    ...(day(q.since) ? { since: day(q.since) } : {}),
    ...(day(q.until) ? { until: day(q.until) } : {}),
  };
  const cursor = isObjectId(q.after) ? q.after : undefined;
  return { query: { ...filters, ...(cursor ? { cursor } : {}), limit: PAGE_SIZE }, filters, onFirstPage: !cursor };
}
