import express from 'express';
import type { ControlPlane } from '../../control/types.js';
import type { BlameView, SpecService } from '../../domain/types.js';
import { sendHtml } from '../context.js';
import { html } from '../html.js';
import { artifactPage, findNode } from '../views/artifact.js';
import { blamePage, blameWindowStart } from '../views/blame.js';
import { diffLayoutParam } from '../views/diff.js';
import { shortCommit } from '../views/format.js';
import { changePage, comparePage, historyPage } from '../views/history.js';
import { layout } from '../views/layout.js';
import { versionPage } from '../views/version.js';
import { artifactContext, commitParam } from './artifact-context.js';
import { historyQuery } from './history-query.js';
import { Lru } from '../lru.js';
import { withoutTitleHeading } from '../markdown.js';
import { pageKey, renderTiming, type RenderedDocuments } from '../rendered-documents.js';

const BLAME_BUDGET_CHARS = 32 * 1024 * 1024;
/** What a blamed line holds besides its text (commit, author, dates), counted against the budget. */
const BLAME_LINE_OVERHEAD = 200;

const DONE: Record<string, string> = {
  revert: 'The change was reverted. The revert is a new change in the history.',
  restore: 'The version was restored. The restore is a new change in the history.',
  edit: 'Your changes were saved as a new change in the history.',
  move: 'Moved. The move is a new change in the history.',
  undelete: 'Restored, with what was deleted with it. The restore is a new change in the history.',
};

/** The artifact, its raw markdown, its history, each change's diff and comparisons. */
export function artifactRoutes(deps: {
  specs: SpecService;
  control: ControlPlane;
  rendered: RenderedDocuments;
}): express.Router {
  const { specs, control, rendered } = deps;
  const router = express.Router();

  router.get('/o/:orgId/a/:id', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const [artifact, history, canWrite, tree] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id, 'full'),
      specs.history(ctx.actor, ctx.id),
      specs.canWrite(ctx.actor, ctx.id),
      specs.tree(ctx.actor, { around: ctx.id }),
    ]);
    const children = findNode(tree.product, ctx.id)?.children ?? [];
    const body = withoutTitleHeading(artifact.content, artifact.title);
    const document = await rendered.html(pageKey(ctx.org.id, artifact.id, artifact.version), body);
    res.set('Server-Timing', renderTiming(document.from));
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const notice = done ? html`<div class="notice success" role="status">${done}</div>` : html``;
    sendHtml(
      res,
      layout(
        { title: artifact.title, user: ctx.user, org: ctx.org },
        html`${notice}${artifactPage(ctx.org.id, { artifact, crumbs: ctx.crumbs, children, tree, latest: history[0], changeCount: history.length, canWrite, document: document.markup })}`,
      ),
    );
  });

  router.get('/o/:orgId/a/:id/raw', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const artifact = await specs.read(ctx.actor, ctx.type, ctx.id, 'full');
    res.status(200).type('text/markdown; charset=utf-8').set('Cache-Control', 'no-store').send(artifact.content);
  });

  router.get('/o/:orgId/a/:id/history', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const { query, filters, onFirstPage } = historyQuery(req);
    const [artifact, page] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.historyPage(ctx.actor, ctx.id, query),
    ]);
    const view = historyPage(ctx.org.id, artifact, ctx.crumbs, page, filters, onFirstPage);
    sendHtml(res, layout({ title: `History: ${artifact.title}`, user: ctx.user, org: ctx.org }, view));
  });

  /**
   * The blame of a version never changes, and of a long document it is the costliest read a page
   * makes (git blame, its history, 20,000 lines): each version's is kept, stored under the version
   * it was taken at, and the next version's follows from it.
   */
  const blames = new Lru<BlameView>(BLAME_BUDGET_CHARS, (blame) =>
    blame.lines.reduce((sum, line) => sum + line.text.length + BLAME_LINE_OVERHEAD, 0),
  );

  router.get('/o/:orgId/a/:id/blame', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const artifact = await specs.read(ctx.actor, ctx.type, ctx.id);
    const keyOf = (version: string) => `${ctx.org.id}/${artifact.id}@${version}`;
    let blame = blames.get(keyOf(artifact.version));
    if (!blame) {
      blame = await specs.blame(ctx.actor, ctx.id, (version) => blames.get(keyOf(version)));
      blames.set(keyOf(blame.version), blame);
    }
    sendHtml(
      res,
      layout(
        { title: `Blame: ${artifact.title}`, user: ctx.user, org: ctx.org },
        blamePage(ctx.org.id, artifact, ctx.crumbs, blame, blameWindowStart(req.query.from)),
      ),
    );
  });

  router.get('/o/:orgId/a/:id/changes/:commit', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const commit = commitParam(req.params.commit);
    const [artifact, change, canWrite] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.change(ctx.actor, ctx.id, commit),
      specs.canWrite(ctx.actor, ctx.id),
    ]);
    sendHtml(
      res,
      layout(
        { title: `Change ${shortCommit(commit)}: ${artifact.title}`, user: ctx.user, org: ctx.org },
        changePage(ctx.org.id, artifact, ctx.crumbs, change, canWrite, diffLayoutParam(req.query.view)),
      ),
    );
  });

  router.get('/o/:orgId/a/:id/compare', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const from = commitParam(req.query.from);
    const to = commitParam(req.query.to);
    const [artifact, diff] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.compare(ctx.actor, ctx.id, from, to),
    ]);
    sendHtml(
      res,
      layout(
        { title: `Compare: ${artifact.title}`, user: ctx.user, org: ctx.org },
        comparePage(ctx.org.id, artifact, ctx.crumbs, from, to, diff, diffLayoutParam(req.query.view)),
      ),
    );
  });

  router.get('/o/:orgId/a/:id/versions/:commit', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const commit = commitParam(req.params.commit);
    const [artifact, change, body, canWrite] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.change(ctx.actor, ctx.id, commit),
      specs.bodyAt(ctx.actor, ctx.id, commit),
      specs.canWrite(ctx.actor, ctx.id),
    ]);
    const key = { orgId: ctx.org.id, artifactId: artifact.id, version: commit, variant: 'version' };
    const document = await rendered.html(key, body);
    res.set('Server-Timing', renderTiming(document.from));
    const view = versionPage(ctx.org.id, artifact, ctx.crumbs, change, document.markup, canWrite);
    sendHtml(
      res,
      layout({ title: `Version ${shortCommit(commit)}: ${artifact.title}`, user: ctx.user, org: ctx.org }, view),
    );
  });

  return router;
}
