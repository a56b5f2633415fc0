import express, { type Request, type Response } from 'express';
import type { AuditQuery, AuditRecord, ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { sendHtml } from '../context.js';
import { AUDIT_FILTERS, auditPage, type AuditFilters } from '../views/audit.js';
import { layout } from '../views/layout.js';
import { adminContext } from './admin-context.js';

const PAGE = 50;
/** One export holds at most this many rows, read a page at a time. */
const MAX_EXPORT = 100_000;
const EXPORT_PAGE = 1000;

function filtersOf(req: Request): AuditFilters {
  const pick = (name: string) =>
    typeof req.query[name] === 'string' ? String(req.query[name]).trim().slice(0, 320) : '';
  return Object.fromEntries(AUDIT_FILTERS.map((name) => [name, pick(name)]).filter(([, value]) => value));
}

/** The filters as a query of the control plane; an unknown user matches nothing, as an unknown artifact does. */
async function queryOf(
  control: ControlPlane,
  orgId: string,
  filters: AuditFilters,
): Promise<Omit<AuditQuery, 'limit'>> {
  const user = filters.user ? await control.users.byEmail(filters.user) : undefined;
  return {
    orgId,
    ...(filters.user ? { userId: user?.id ?? '-' } : {}),
    ...(filters.client ? { client: filters.client } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.artifact ? { artifactId: filters.artifact } : {}),
    ...(filters.since ? { since: filters.since } : {}),
    ...(filters.until ? { until: filters.until } : {}),
  };
}

const CSV_COLUMNS = [
  'at',
  'userEmail',
  'userName',
  'kind',
  'client',
  'action',
  'artifactId',
  'commit',
  'outcome',
  'durationMs',
  'detail',
] as const;

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula is prefixed with a quote. */
function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function* allRows(control: ControlPlane, query: Omit<AuditQuery, 'limit'>): AsyncGenerator<AuditRecord> {
  let cursor: string | undefined;
  let sent = 0;
  do {
    const page = await control.audit.page({ ...query, limit: EXPORT_PAGE, ...(cursor ? { cursor } : {}) });
    for (const entry of page.entries) {
      if (sent++ >= MAX_EXPORT) return;
      yield entry;
    }
    cursor = page.next;
  } while (cursor);
}

async function exportRows(
  res: Response,
  control: ControlPlane,
  orgId: string,
  query: Omit<AuditQuery, 'limit'>,
  format: 'csv' | 'json',
) {
  const day = new Date().toISOString().slice(0, 10);
  res.status(200).set('Cache-Control', 'no-store').attachment(`audit-${orgId}-${day}.${format}`);
  res.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json');
  if (format === 'csv') {
    res.write(`${CSV_COLUMNS.join(',')}\r\n`);
    for await (const entry of allRows(control, query))
      res.write(`${CSV_COLUMNS.map((column) => csvCell(entry[column])).join(',')}\r\n`);
  } else {
    let first = true;
    res.write('[');
    for await (const entry of allRows(control, query)) {
      res.write(`${first ? '\n' : ',\n'}${JSON.stringify(entry)}`);
      first = false;
    }
    res.write('\n]\n');
  }
  res.end();
}

/** The audit log, for organization admins: a filtered page newest first, and the same filters exported. */
export function auditRoutes(deps: { control: ControlPlane; specs: SpecService }): express.Router {
  const { control, specs } = deps;
  const router = express.Router();

  router.get('/o/:orgId/audit', async (req, res) => {
    const ctx = await adminContext(control, req);
    const filters = filtersOf(req);
    const cursor = typeof req.query.after === 'string' ? req.query.after : undefined;
    const page = await control.audit.page({
      ...(await queryOf(control, ctx.org.id, filters)),
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    const titles = await specs.titlesAsOf(
      ctx.actor,
      page.entries.map((e) => ({ artifactId: e.artifactId ?? '', commit: e.commit, at: e.at })),
    );
    const content = auditPage(ctx.org.id, page, titles, filters, !cursor);
    sendHtml(res, layout({ title: 'Audit log', user: ctx.user, org: { ...ctx.org, section: 'audit' } }, content));
  });

  for (const format of ['csv', 'json'] as const) {
    router.get(`/o/:orgId/audit/export.${format}`, async (req, res) => {
      const ctx = await adminContext(control, req);
      await exportRows(res, control, ctx.org.id, await queryOf(control, ctx.org.id, filtersOf(req)), format);
    });
  }

  return router;
}
