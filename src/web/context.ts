import type { Request, Response } from 'express';
import type { Principal } from '../access/principal.js';
import type { WebUser } from '../auth/types.js';
import { isOrganizationAdmin } from '../access/index.js';
import type { ControlPlane, Organization, Workspace } from '../control/types.js';
import type { Actor } from '../domain/types.js';
import { NotFoundError } from '../errors.js';
import { isUuid } from '../ids.js';

/**
 * What the signed-in member may do across the organization, which decides the menu: an admin
 * (owner, or admin of every workspace) sees the admin pages, an editor of any workspace the
 * pages that change things.
 */
export type OrgStanding = 'viewer' | 'editor' | 'admin';

/** The organization as one member sees it: carried into every page's chrome, so every page shows their menu. */
export interface MemberOrganization extends Organization {
  readonly standing: OrgStanding;
}

/** The signed-in user acting in one organization through the web application. */
export interface OrgContext {
  readonly user: WebUser;
  readonly org: MemberOrganization;
  readonly principal: Principal;
  readonly actor: Actor;
  readonly workspaces: readonly Workspace[];
}

function standingOf(principal: Principal, workspaces: readonly Workspace[]): OrgStanding {
  if (
    isOrganizationAdmin(
      principal,
      workspaces.map((w) => w.id),
    )
  )
    return 'admin';
  return [...principal.roles.values()].some((role) => role === 'editor' || role === 'admin') ? 'editor' : 'viewer';
}

/** Resolves `:orgId` for the signed-in user; an organization they do not belong to does not exist. */
export async function orgContext(control: ControlPlane, req: Request): Promise<OrgContext> {
  const user = req.user;
  const orgId = String(req.params.orgId ?? '').toLowerCase();
  if (!user || !isUuid(orgId)) throw new NotFoundError('organization');
  const [org, principal, workspaces] = await Promise.all([
    control.orgs.get(orgId),
    control.members.principal(orgId, user.id),
    control.workspaces.list(orgId),
  ]);
  if (!org || !principal) throw new NotFoundError('organization');
  return {
    user,
    org: { ...org, standing: standingOf(principal, workspaces) },
    principal,
    actor: { principal, client: 'web' },
    workspaces,
  };
}

export const sendHtml = (res: Response, markup: { toString(): string }, status = 200): void => {
  res.status(status).type('html').set('Cache-Control', 'no-store').send(markup.toString());
};

/** Whether any workspace lets the user change things: decides whether creation controls are shown at all. */
export const writesSomewhere = (ctx: OrgContext): boolean => ctx.org.standing !== 'viewer';
