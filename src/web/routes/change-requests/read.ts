import express, { type Request } from 'express';
import { orgContext, sendHtml } from '../../context.js';
import { renderMarkdown } from '../../markdown.js';
import { csrfToken } from '../../security.js';
import { changeRequestListPage, type ChangeRequestFilters } from '../../views/change-requests/list.js';
import { changeRequestPage } from '../../views/change-requests/page.js';
import { diffLayoutParam } from '../../views/diff.js';
import { layout } from '../../views/layout.js';
import { numberParam, type ChangeRequestRouteDeps } from './deps.js';

const DONE: Record<string, string> = {
  merged: 'Merged: its changes are on main now, in the history of each artifact it changed.',
  closed: 'Closed. It can be reopened.',
  reopened: 'Reopened.',
  commented: 'Your comment was added.',
};

function filtersOf(req: Request): ChangeRequestFilters {
  const { state, author } = req.query;
  return {
    state: state === 'merged' || state === 'closed' || state === 'all' ? state : 'open',
    author: typeof author === 'string' ? author.trim().slice(0, 200) : '',
  };
}

/** The organization's change requests, and one change request for review. */
export function readRoutes(deps: ChangeRequestRouteDeps): express.Router {
  const { control, config, changeRequests } = deps;
  const router = express.Router();

  router.get('/o/:orgId/cr', async (req, res) => {
    const ctx = await orgContext(control, req);
    const filters = filtersOf(req);
    const all = await changeRequests.list(ctx.actor, filters.state === 'all' ? {} : { state: filters.state });
    const author = filters.author.toLowerCase();
    const shown = all
      .filter((cr) => !author || (cr.author?.name ?? '').toLowerCase().includes(author))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const page = changeRequestListPage(ctx.org.id, shown, filters);
    sendHtml(
      res,
      layout({ title: 'Change requests', user: ctx.user, org: { ...ctx.org, section: 'change-requests' } }, page),
    );
  });

  router.get('/o/:orgId/cr/:number', async (req, res) => {
    const ctx = await orgContext(control, req);
    const changeRequest = await changeRequests.detail(ctx.actor, numberParam(req));
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const page = changeRequestPage({
      orgId: ctx.org.id,
      changeRequest,
      description: renderMarkdown(changeRequest.description),
      layout: diffLayoutParam(req.query.view),
      csrf: csrfToken(req, res, config.baseUrl),
      // The domain decides; the page offers Close and Reopen to those it would allow.
      mayAdminister: changeRequest.author?.id === ctx.user.id || ctx.org.standing !== 'viewer',
      ...(done ? { done } : {}),
    });
    const title = `${changeRequest.title} #${changeRequest.number}`;
    sendHtml(res, layout({ title, user: ctx.user, org: { ...ctx.org, section: 'change-requests' } }, page));
  });

  return router;
}
