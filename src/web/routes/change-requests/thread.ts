import express, { type Request, type Response } from 'express';
import { InvalidInputError } from '../../../errors.js';
import { audited } from '../../audit-trail.js';
import { orgContext, type OrgContext } from '../../context.js';
import { field, refusedForgery, smallForm } from '../form.js';
import { numberParam, type ChangeRequestRouteDeps } from './deps.js';

/** Longest comment taken: a review remark, not a document. */
const MAX_COMMENT_CHARS = 10_000;

/** Comments, close and reopen: each one audited, then back to the change request's page. */
export function threadRoutes(deps: ChangeRequestRouteDeps): express.Router {
  const { control, config, changeRequests } = deps;
  const router = express.Router();
  const commentForm = express.urlencoded({ extended: false, limit: MAX_COMMENT_CHARS * 3 + 8 * 1024 });

  const action =
    (name: string, done: string, work: (req: Request, ctx: OrgContext, number: number) => Promise<string>) =>
    async (req: Request, res: Response) => {
      if (refusedForgery(req, res, config.baseUrl)) return;
      const ctx = await orgContext(control, req);
      const number = numberParam(req);
      await audited(
        control,
        ctx,
        `web.change_request.${name}`,
        null,
        () => work(req, ctx, number),
        (detail) => ({ detail }),
      );
      res.redirect(303, `/o/${ctx.org.id}/cr/${number}?done=${done}`);
    };

  router.post(
    '/o/:orgId/cr/:number/comments',
    commentForm,
    action('comment', 'commented', async (req, ctx, number) => {
      const body = field(req, 'body').replace(/\r\n?/g, '\n').trim();
      if (!body) throw new InvalidInputError('a comment needs some text');
      if (body.length > MAX_COMMENT_CHARS)
        throw new InvalidInputError(`a comment holds at most ${MAX_COMMENT_CHARS} characters`);
      await changeRequests.comment(ctx.actor, number, body);
      return `commented on change request ${number}`;
    }),
  );

  router.post(
    '/o/:orgId/cr/:number/close',
    smallForm,
    action('close', 'closed', async (_req, ctx, number) => {
      await changeRequests.close(ctx.actor, number);
      return `closed change request ${number}`;
    }),
  );

  router.post(
    '/o/:orgId/cr/:number/reopen',
    smallForm,
    action('reopen', 'reopened', async (_req, ctx, number) => {
      await changeRequests.reopen(ctx.actor, number);
      return `reopened change request ${number}`;
    }),
  );

  return router;
}
