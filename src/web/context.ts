import type { Request, Response } from 'express';
import type { Principal } from '../access/principal.js';
import type { WebUser } from '../auth/types.js';
import type { ControlPlane, Organization } from '../control/types.js';
import type { Actor } from '../domain/types.js';
import { NotFoundError } from '../errors.js';
import { isUuid } from '../ids.js';

/** The signed-in user acting in one organization through the web application. */
export interface OrgContext {
  readonly user: WebUser;
  readonly org: Organization;
  readonly principal: Principal;
  readonly actor: Actor;
}

/** Resolves `:orgId` for the signed-in user; an organization they do not belong to does not exist. */
export async function orgContext(control: ControlPlane, req: Request): Promise<OrgContext> {
  const user = req.user;
  const orgId = String(req.params.orgId ?? '').toLowerCase();
  if (!user || !isUuid(orgId)) throw new NotFoundError('organization');
  const [org, principal] = await Promise.all([control.orgs.get(orgId), control.members.principal(orgId, user.id)]);
  if (!org || !principal) throw new NotFoundError('organization');
  return { user, org, principal, actor: { principal, client: 'web' } };
}

export const sendHtml = (res: Response, markup: { toString(): string }, status = 200): void => {
  res.status(status).type('html').set('Cache-Control', 'no-store').send(markup.toString());
};

/** Whether any workspace lets the user change things: decides whether creation controls are shown at all. */
export const writesSomewhere = (ctx: OrgContext): boolean =>
  ctx.principal.isOwner || [...ctx.principal.roles.values()].some((role) => role === 'editor' || role === 'admin');
