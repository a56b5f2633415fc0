import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import { InvalidInputError, NotFoundError } from '../../errors.js';
import type { WebhookActions } from '../../webhooks/index.js';
import { audited } from '../audit-trail.js';
import { sendHtml, type OrgContext } from '../context.js';
import { csrfToken } from '../security.js';
import { layout } from '../views/layout.js';
import { webhooksPage, type WebhooksModel } from '../views/webhooks.js';
import { adminContext } from './admin-context.js';
import { field, refusedForgery, smallForm } from './form.js';

const ATTEMPTS_SHOWN = 10;

const values = (req: Request, name: string): string[] => {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
};

/** The webhooks page, for organization admins: endpoints with their delivery log; add, test, enable, remove. */
export function webhookRoutes(deps: {
  control: ControlPlane;
  config: Config;
  webhooks: WebhookActions;
}): express.Router {
  const { control, config } = deps;
  const router = express.Router();
  const form = express.urlencoded({ extended: true, limit: '8kb' });

  async function render(
    req: Request,
    res: Response,
    ctx: OrgContext,
    extra: Pick<WebhooksModel, 'created' | 'problem'> = {},
    status = 200,
  ) {
    const endpoints = await control.webhooks.list(ctx.org.id);
    const metrics = await control.webhooks.metrics(ctx.org.id);
    const model: WebhooksModel = {
      orgId: ctx.org.id,
      csrf: csrfToken(req, res, config.baseUrl),
      workspaces: ctx.workspaces,
      endpoints: await Promise.all(
        endpoints.map(async (endpoint) => ({
          endpoint,
          metrics: metrics.find((m) => m.endpointId === endpoint.id),
          attempts: await control.webhooks.attempts(ctx.org.id, endpoint.id, ATTEMPTS_SHOWN),
        })),
      ),
      ...extra,
    };
    // The one page that shows a secret must not be kept by the browser or any cache.
    sendHtml(
      res,
      layout({ title: 'Webhooks', user: ctx.user, org: { ...ctx.org, section: 'webhooks' } }, webhooksPage(model)),
      status,
    );
  }

  router.get('/o/:orgId/webhooks', async (req, res) => {
    await render(req, res, await adminContext(control, req));
  });

  router.post('/o/:orgId/webhooks', form, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await adminContext(control, req);
    try {
      const { endpoint, secret } = await audited(
        control,
        ctx,
        'web.webhook.add',
        null,
        () =>
          deps.webhooks.add({
            orgId: ctx.org.id,
            url: field(req, 'url'),
            events: values(req, 'events'),
            workspaceIds: values(req, 'workspaces'),
            createdBy: ctx.user.id,
          }),
        () => ({}),
      );
      await render(req, res, ctx, { created: { id: endpoint.id, secret } });
    } catch (error) {
      if (error instanceof InvalidInputError) return render(req, res, ctx, { problem: error.message }, 400);
      throw error;
    }
  });

  const endpointAction = (verb: 'test' | 'enable' | 'remove', act: (ctx: OrgContext, id: string) => Promise<unknown>) =>
    router.post(`/o/:orgId/webhooks/:id/${verb}`, smallForm, async (req, res) => {
      if (refusedForgery(req, res, config.baseUrl)) return;
      const ctx = await adminContext(control, req);
      const endpoint = await control.webhooks.get(ctx.org.id, String(req.params.id));
      if (!endpoint) throw new NotFoundError('webhook');
      await audited(
        control,
        ctx,
        `web.webhook.${verb}`,
        null,
        () => act(ctx, endpoint.id),
        () => ({}),
      );
      res.redirect(303, `/o/${ctx.org.id}/webhooks${verb === 'remove' ? '' : `#webhook-${endpoint.id}`}`);
    });

  endpointAction('test', (ctx, id) => deps.webhooks.test(ctx.org.id, id));
  endpointAction('enable', (ctx, id) => control.webhooks.enable(ctx.org.id, id));
  endpointAction('remove', (ctx, id) => control.webhooks.remove(ctx.org.id, id));

  return router;
}
