import express, { type Request, type Response } from 'express';
import type { GrantAdmin } from '../../auth/types.js';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import { InvalidInputError } from '../../errors.js';
import { orgContext, sendHtml, type OrgContext } from '../context.js';
import { errorPageFor } from '../errors.js';
import { csrfProblem, csrfToken } from '../security.js';
import { connectPage, TOKEN_LIFETIMES } from '../views/connect.js';
import { layout } from '../views/layout.js';
import { loadConnections, revokeGrant, revokeToken, setBlocked } from './connections.js';

const form = express.urlencoded({ extended: false, limit: '4kb' });

/** The form's lifetime choice: one of TOKEN_LIFETIMES (days) or "never"; none, the default. */
function tokenExpiry(choice: unknown): Date | null | undefined {
  if (choice === undefined || choice === '') return undefined;
  if (choice === 'never') return null;
  const days = Number(choice);
  if (!TOKEN_LIFETIMES.includes(days))
    throw new InvalidInputError(`a token expires in ${TOKEN_LIFETIMES.join(', ')} days, or never`);
  return new Date(Date.now() + days * 86_400_000);
}

/**
 * The connect dialog: organization id, MCP URLs, client configuration, personal access tokens,
 * connected assistants (and, for an organization admin, the members' connections used here,
 * which they can block here).
 */
export function connectRoutes(deps: {
  control: ControlPlane;
  config: Config;
  auth: { readonly grants: GrantAdmin };
}): express.Router {
  const { control, config } = deps;
  const connections = { control, grants: deps.auth.grants };
  const router = express.Router();

  async function render(req: Request, res: Response, ctx: OrgContext, created?: { name: string; secret: string }) {
    const manage = req.query.manage === '1';
    const [tokens, connected] = await Promise.all([
      control.tokens.list(ctx.user.id),
      loadConnections(connections, ctx),
    ]);
    const csrf = csrfToken(req, res, config.baseUrl);
    const page = connectPage({
      org: ctx.org,
      baseUrl: config.baseUrl,
      tokens,
      csrf,
      connections: { orgId: ctx.org.id, csrf, ...connected },
      manage,
      ...(created ? { created } : {}),
    });
    sendHtml(
      res,
      layout(
        {
          title: 'Connect an assistant',
          user: ctx.user,
          org: { ...ctx.org, section: 'connect' },
        },
        page,
      ),
    );
  }

  function refused(req: Request, res: Response): boolean {
    const problem = csrfProblem(req, config.baseUrl);
    if (problem) sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
    return Boolean(problem);
  }

  router.get('/o/:orgId/connect', async (req, res) => {
    await render(req, res, await orgContext(control, req));
  });

  router.post('/o/:orgId/tokens', form, async (req, res) => {
    if (refused(req, res)) return;
    const ctx = await orgContext(control, req);
    const fields = req.body as Record<string, unknown>;
    const name = String(fields.name ?? '').trim();
    if (!name || name.length > 100) throw new InvalidInputError('a token needs a name of 1 to 100 characters');
    const expiresAt = tokenExpiry(fields.expires);
    const readOnly = fields.readonly === 'on';
    const { secret, token } = await control.tokens.create({
      userId: ctx.user.id,
      name,
      readOnly,
      ...(expiresAt === undefined ? {} : { expiresAt }),
    });
    // The one page that shows the secret must not be kept by the browser or any cache.
    res.set('Cache-Control', 'no-store');
    await render(req, res, ctx, { name: token.name, secret });
  });

  router.post('/o/:orgId/tokens/:tokenId/revoke', form, async (req, res) => {
    if (refused(req, res)) return;
    const ctx = await orgContext(control, req);
    await revokeToken(connections, ctx, String(req.params.tokenId));
    res.redirect(303, `/o/${ctx.org.id}/connect#h-tokens`);
  });

  router.post('/o/:orgId/grants/:grantId/revoke', form, async (req, res) => {
    if (refused(req, res)) return;
    const ctx = await orgContext(control, req);
    await revokeGrant(connections, ctx, String(req.params.grantId));
    res.redirect(303, `/o/${ctx.org.id}/connect#h-grants`);
  });

  for (const [segment, kind] of [
    ['tokens', 'token'],
    ['grants', 'grant'],
  ] as const) {
    for (const verb of ['block', 'unblock'] as const) {
      router.post(`/o/:orgId/members/${segment}/:id/${verb}`, form, async (req, res) => {
        if (refused(req, res)) return;
        const ctx = await orgContext(control, req);
        await setBlocked(connections, ctx, { kind, id: String(req.params.id) }, verb === 'block');
        res.redirect(303, `/o/${ctx.org.id}/connect#h-member-connections`);
      });
    }
  }

  return router;
}
