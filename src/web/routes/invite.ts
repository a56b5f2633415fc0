import express from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import { InvalidInputError, NotFoundError } from '../../errors.js';
import { sendHtml } from '../context.js';
import { csrfToken } from '../security.js';
import { invitationDonePage, invitationGonePage, invitePage } from '../views/invite.js';
import { layout } from '../views/layout.js';
import { field, refusedForgery, smallForm } from './form.js';

/** `/invite/{secret}`: a person an admin added sets their password, once, before they can sign in. */
export function inviteRoutes(deps: { control: ControlPlane; config: Config }): express.Router {
  const { control, config } = deps;
  const router = express.Router();
  const page = (title: string, content: ReturnType<typeof invitePage>) => layout({ title }, content);

  router.get('/invite/:secret', async (req, res) => {
    const user = await control.invitations.peek(String(req.params.secret));
    if (!user) return sendHtml(res, page('Invitation', invitationGonePage()), 404);
    sendHtml(res, page('Set your password', invitePage(user, csrfToken(req, res, config.baseUrl))));
  });

  router.post('/invite/:secret', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const secret = String(req.params.secret);
    const user = await control.invitations.peek(secret);
    if (!user) return sendHtml(res, page('Invitation', invitationGonePage()), 404);
    const again = (problem: string) =>
      sendHtml(res, page('Set your password', invitePage(user, csrfToken(req, res, config.baseUrl), problem)), 400);
    if (field(req, 'password') !== field(req, 'confirm')) return again('The two passwords differ. Nothing was set.');
    try {
      const { orgId } = await control.invitations.redeem(secret, field(req, 'password'));
      await control.audit.record({
        kind: 'web',
        userId: user.id,
        orgId,
        action: 'web.invitation.accept',
        artifactId: null,
        commit: null,
        client: 'web',
        durationMs: null,
        outcome: 'ok',
        detail: `${user.email} set their password through an invitation`,
      });
      sendHtml(res, page('Password set', invitationDonePage(user.email)));
    } catch (error) {
      if (error instanceof InvalidInputError) return again(`${error.message}. Nothing was set.`);
      if (error instanceof NotFoundError) return sendHtml(res, page('Invitation', invitationGonePage()), 404);
      throw error;
    }
  });

  return router;
}
