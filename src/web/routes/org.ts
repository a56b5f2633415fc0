import express from 'express';
import { isArtifactType } from '../../artifacts/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { orgContext, sendHtml, writesSomewhere } from '../context.js';
import { activityPage } from '../views/activity.js';
import { homeView, orgListView } from '../views/home.js';
import { layout } from '../views/layout.js';
import { searchView } from '../views/search.js';
import { historyQuery } from './history-query.js';

const SEARCH_LIMIT = 30;
/**
 * Product tree nodes the home page shows at most, a level at a time: the whole tree of a small
 * organization, the first levels of a large one (100,000 artifacts made a page of megabytes).
 */
const HOME_TREE_NODES = 1_000;

/** `/`, the organization home with its tree, search and the activity feed. */
export function orgRoutes(deps: { specs: SpecService; control: ControlPlane }): express.Router {
  const { specs, control } = deps;
  const router = express.Router();

  router.get('/', async (req, res) => {
    const orgs = await control.orgs.forUser(req.user!.id);
    if (orgs.length === 1) return res.redirect(303, `/o/${orgs[0]!.id}`);
    sendHtml(res, layout({ title: 'Organizations', user: req.user! }, orgListView(orgs)));
  });

  router.get('/o/:orgId', async (req, res) => {
    const ctx = await orgContext(control, req);
    const tree = await specs.tree(ctx.actor, { upTo: HOME_TREE_NODES });
    sendHtml(
      res,
      layout(
        { title: ctx.org.name, user: ctx.user, org: { ...ctx.org, section: 'home' } },
        homeView(ctx.org, tree, writesSomewhere(ctx)),
      ),
    );
  });

  router.get('/o/:orgId/search', async (req, res) => {
    const ctx = await orgContext(control, req);
    const query = typeof req.query.q === 'string' ? req.query.q.trim() : '';
    const type = isArtifactType(req.query.type) ? req.query.type : undefined;
    const found = query
      ? await specs.searchHighlighted(ctx.actor, {
          query,
          limit: SEARCH_LIMIT,
          ...(type ? { artifactTypes: [type] } : {}),
        })
      : { results: [] };
    const results = found.results;
    sendHtml(
      res,
      layout(
        { title: query ? `Search: ${query}` : 'Search', user: ctx.user, org: { ...ctx.org, section: 'search', query } },
        searchView(ctx.org, query, type, results, found.notice),
      ),
    );
  });

  router.get('/o/:orgId/activity', async (req, res) => {
    const ctx = await orgContext(control, req);
    const { query, filters, onFirstPage } = historyQuery(req);
    const page = await specs.activityPage(ctx.actor, query);
    const view = activityPage(ctx.org.id, page, filters, onFirstPage);
    sendHtml(res, layout({ title: 'Activity', user: ctx.user, org: { ...ctx.org, section: 'activity' } }, view));
  });

  return router;
}
