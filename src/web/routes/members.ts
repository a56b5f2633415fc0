import express, { type Request, type Response } from 'express';
import { isWorkspaceRole } from '../../access/index.js';
import type { Config } from '../../config/index.js';
import { addMember } from '../../control/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { ChangeRequests } from '../../domain/index.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../errors.js';
import { audited } from '../audit-trail.js';
import { sendHtml, type OrgContext } from '../context.js';
import { csrfToken } from '../security.js';
import { layout } from '../views/layout.js';
import { membersPage, type MembersModel } from '../views/members.js';
import { adminContext } from './admin-context.js';
import { field, refusedForgery, smallForm } from './form.js';

/** The member `:userId` of the organization, or "not found". */
async function memberOf(control: ControlPlane, ctx: OrgContext, userId: string) {
  const member = (await control.members.list(ctx.org.id)).find((m) => m.user.id === userId);
  if (!member) throw new NotFoundError('member');
  return member;
}

const workspaceOf = (ctx: OrgContext, id: string) => {
  const workspace = ctx.workspaces.find((w) => w.id === id);
  if (!workspace) throw new NotFoundError('workspace');
  return workspace;
};

/**
 * Members and workspaces for organization admins: the same control-plane calls as the CLI's
 * `member` and `workspace` commands, each change audited.
 */
export function memberRoutes(deps: {
  control: ControlPlane;
  config: Config;
  changeRequests: ChangeRequests;
}): express.Router {
  const { control, config, changeRequests } = deps;
  const router = express.Router();
  const issuer = config.oidc?.issuer;

  async function render(req: Request, res: Response, ctx: OrgContext, outcome?: MembersModel['outcome']) {
    const [workspaces, reviewRules] = await Promise.all([
      control.workspaces.list(ctx.org.id),
      changeRequests.reviewRules(ctx.actor),
    ]);
    const page = membersPage({
      orgId: ctx.org.id,
      csrf: csrfToken(req, res, config.baseUrl),
      baseUrl: config.baseUrl,
      members: await control.members.list(ctx.org.id),
      workspaces,
      reviewRules,
      externalIssuer: issuer,
      ...(outcome ? { outcome } : {}),
    });
    const status = outcome?.kind === 'problem' ? 400 : 200;
    // An invitation link is shown once: neither the browser nor a cache may keep the page.
    sendHtml(res, layout({ title: 'Members', user: ctx.user, org: { ...ctx.org, section: 'members' } }, page), status);
  }

  /** A change, audited; a refusal the page can explain is shown on it, anything else goes to the error page. */
  const change =
    (action: string, work: (req: Request, ctx: OrgContext) => Promise<string>) =>
    async (req: Request, res: Response) => {
      if (refusedForgery(req, res, config.baseUrl)) return;
      const ctx = await adminContext(control, req);
      try {
        await audited(
          control,
          ctx,
          action,
          null,
          () => work(req, ctx),
          (detail) => ({ detail }),
        );
      } catch (error) {
        if (error instanceof InvalidInputError || error instanceof ConflictError)
          return render(req, res, ctx, { kind: 'problem', message: `Nothing was changed: ${error.message}.` });
        throw error;
      }
      res.redirect(303, `/o/${ctx.org.id}/members`);
    };

  router.get('/o/:orgId/members', async (req, res) => {
    await render(req, res, await adminContext(control, req));
  });

  router.post('/o/:orgId/members', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await adminContext(control, req);
    try {
      const role = field(req, 'role');
      if (!isWorkspaceRole(role)) throw new InvalidInputError('choose viewer, editor or admin');
      const workspace = workspaceOf(ctx, field(req, 'workspace'));
      const added = await audited(
        control,
        ctx,
        'web.member.add',
        null,
        () =>
          addMember(control, {
            orgId: ctx.org.id,
            email: field(req, 'email'),
            name: field(req, 'name'),
            workspaceId: workspace.id,
            role,
            issuer: issuer ?? 'local',
            addedBy: ctx.user.id,
          }),
        (done) => ({
          detail: `gave ${done.user.email} the role ${role} in ${workspace.name}${done.invitation ? ', with an invitation to set a password' : done.awaitingSignIn ? ', waiting for their first sign-in' : ''}`,
        }),
      );
      await render(req, res, ctx, {
        kind: 'added',
        user: added.user,
        awaitingSignIn: added.awaitingSignIn,
        ...(added.invitation ? { invitation: added.invitation } : {}),
      });
    } catch (error) {
      if (error instanceof InvalidInputError || error instanceof NotFoundError)
        return render(req, res, ctx, { kind: 'problem', message: `Nobody was added: ${error.message}.` });
      throw error;
    }
  });

  router.post(
    '/o/:orgId/members/:userId/roles',
    smallForm,
    change('web.member.roles', async (req, ctx) => {
      const member = await memberOf(control, ctx, String(req.params.userId));
      const changes: string[] = [];
      for (const workspace of ctx.workspaces) {
        const wanted = field(req, `role-${workspace.id}`);
        const had = member.roles.find((r) => r.workspaceId === workspace.id)?.role;
        if ((wanted || undefined) === had) continue;
        const target = { orgId: ctx.org.id, userId: member.user.id, workspaceId: workspace.id };
        if (isWorkspaceRole(wanted)) await control.members.grant({ ...target, role: wanted });
        else if (wanted) throw new InvalidInputError('choose viewer, editor, admin or no access');
        else await control.members.revoke(target);
        changes.push(`${workspace.name}: ${had ?? 'no access'} → ${wanted || 'no access'}`);
      }
      return `roles of ${member.user.email}: ${changes.join('; ') || 'unchanged'}`;
    }),
  );

  router.post(
    '/o/:orgId/members/:userId/remove',
    smallForm,
    change('web.member.remove', async (req, ctx) => {
      const member = await memberOf(control, ctx, String(req.params.userId));
      await control.members.remove({ orgId: ctx.org.id, userId: member.user.id });
      return `removed ${member.user.email} from the organization`;
    }),
  );

  router.post(
    '/o/:orgId/workspaces',
    smallForm,
    change('web.workspace.create', async (req, ctx) => {
      const workspace = await control.workspaces.create({ orgId: ctx.org.id, name: field(req, 'name') });
      return `created the workspace ${workspace.name}`;
    }),
  );

  router.post(
    '/o/:orgId/workspaces/:workspaceId/rename',
    smallForm,
    change('web.workspace.rename', async (req, ctx) => {
      const before = workspaceOf(ctx, String(req.params.workspaceId));
      const after = await control.workspaces.rename({
        orgId: ctx.org.id,
        workspaceId: before.id,
        name: field(req, 'name'),
      });
      return `renamed the workspace ${before.name} to ${after.name}`;
    }),
  );

  router.post(
    '/o/:orgId/workspaces/:workspaceId/review',
    smallForm,
    change('web.workspace.review', async (req, ctx) => {
      const workspace = workspaceOf(ctx, String(req.params.workspaceId));
      const rules = {
        assistantChangesNeedReview: field(req, 'assistantChangesNeedReview') === 'on',
        authorCannotMerge: field(req, 'authorCannotMerge') === 'on',
      };
      await changeRequests.setReviewRules(ctx.actor, workspace.id, rules);
      const said = (on: boolean) => (on ? 'on' : 'off');
      return `review rules of ${workspace.name}: changes from assistants need review ${said(rules.assistantChangesNeedReview)}, the author cannot merge ${said(rules.authorCannotMerge)}`;
    }),
  );

  return router;
}
