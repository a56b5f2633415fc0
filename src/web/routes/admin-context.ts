import type { Request } from 'express';
import { isOrganizationAdmin } from '../../access/index.js';
import type { ControlPlane, Workspace } from '../../control/types.js';
import { PermissionDeniedError } from '../../errors.js';
import { orgContext, type OrgContext } from '../context.js';

export interface AdminContext extends OrgContext {
  readonly workspaces: readonly Workspace[];
}

/** The organization for one of its admins (owner, or admin of every workspace); anyone else is refused. */
export async function adminContext(control: ControlPlane, req: Request): Promise<AdminContext> {
  const ctx = await orgContext(control, req);
  const workspaces = await control.workspaces.list(ctx.org.id);
  if (
    !isOrganizationAdmin(
      ctx.principal,
      workspaces.map((w) => w.id),
    )
  ) {
    throw new PermissionDeniedError(
      'permission denied: only organization admins (owners, or admins of every workspace) see this page',
    );
  }
  return { ...ctx, workspaces };
}
