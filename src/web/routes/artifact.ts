import express from 'express';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { sendHtml } from '../context.js';
import { html } from '../html.js';
import { artifactPage, breadcrumb } from '../views/artifact.js';
import { shortCommit, when } from '../views/format.js';
import { changePage, comparePage, historyPage } from '../views/history.js';
import { layout } from '../views/layout.js';
import { renderMarkdown, withoutTitleHeading } from '../markdown.js';
import { artifactContext, commitParam } from './artifact-context.js';

const DONE: Record<string, string> = {
  revert: 'The change was reverted. The revert is a new change in the history.',
  restore: 'The version was restored. The restore is a new change in the history.',
  edit: 'Your changes were saved as a new change in the history.',
};

/** The artifact, its raw markdown, its history, each change's diff and comparisons. */
export function artifactRoutes(deps: { specs: SpecService; control: ControlPlane }): express.Router {
  const { specs, control } = deps;
  const router = express.Router();

  router.get('/o/:orgId/a/:id', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const [artifact, history, canWrite] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id, 'full'),
      specs.history(ctx.actor, ctx.id),
      specs.canWrite(ctx.actor, ctx.id),
    ]);
    const done = typeof req.query.done === 'string' ? DONE[req.query.done] : undefined;
    const notice = done ? html`<div class="notice success" role="status">${done}</div>` : html``;
    sendHtml(
      res,
      layout({ title: artifact.title, user: ctx.user, org: ctx.org }, html`${notice}${artifactPage(ctx.org.id, { artifact, crumbs: ctx.crumbs, children: ctx.children, tree: ctx.tree, latest: history[0], changeCount: history.length, canWrite })}`),
    );
  });

  router.get('/o/:orgId/a/:id/raw', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const artifact = await specs.read(ctx.actor, ctx.type, ctx.id, 'full');
    res.status(200).type('text/markdown; charset=utf-8').set('Cache-Control', 'no-store').send(artifact.content);
  });

  router.get('/o/:orgId/a/:id/history', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const [artifact, entries] = await Promise.all([specs.read(ctx.actor, ctx.type, ctx.id), specs.history(ctx.actor, ctx.id)]);
    sendHtml(res, layout({ title: `History: ${artifact.title}`, user: ctx.user, org: ctx.org }, historyPage(ctx.org.id, artifact, ctx.crumbs, entries)));
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
      layout({ title: `Change ${shortCommit(commit)}: ${artifact.title}`, user: ctx.user, org: ctx.org }, changePage(ctx.org.id, artifact, ctx.crumbs, change, canWrite)),
    );
  });

  router.get('/o/:orgId/a/:id/compare', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const from = commitParam(req.query.from);
    const to = commitParam(req.query.to);
    const [artifact, diff] = await Promise.all([specs.read(ctx.actor, ctx.type, ctx.id), specs.compare(ctx.actor, ctx.id, from, to)]);
    sendHtml(res, layout({ title: `Compare: ${artifact.title}`, user: ctx.user, org: ctx.org }, comparePage(ctx.org.id, artifact, ctx.crumbs, from, to, diff)));
  });

  router.get('/o/:orgId/a/:id/versions/:commit', async (req, res) => {
    const ctx = await artifactContext(specs, control, req);
    const commit = commitParam(req.params.commit);
    const [artifact, change, body] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.change(ctx.actor, ctx.id, commit),
      specs.bodyAt(ctx.actor, ctx.id, commit),
    ]);
    const b = `/o/${ctx.org.id}/a/${ctx.id}`;
    sendHtml(
      res,
      layout(
        { title: `Version ${shortCommit(commit)}: ${artifact.title}`, user: ctx.user, org: ctx.org },
        html`${breadcrumb(ctx.org.id, ctx.crumbs, { label: artifact.title, id: artifact.id })}
<div class="notice" role="note">You are looking at the version of ${when(change.authoredAt)} by ${change.author.name}.
<a href="${b}/compare?from=${commit}&amp;to=${artifact.version}">Compare with the current version</a> · <a href="${b}">Current version</a></div>
<article class="artifact"><div class="doc markdown">${renderMarkdown(withoutTitleHeading(body, artifact.title))}</div></article>`,
      ),
    );
  });

  return router;
}
