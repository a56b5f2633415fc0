import type { Request } from 'express';
import type { ControlPlane } from '../../control/types.js';
import { PermissionDeniedError } from '../../errors.js';
import { orgContext, type OrgContext } from '../context.js';

/** The organization for one of its admins (owner, or admin of every workspace); anyone else is refused. */
export async function adminContext(control: ControlPlane, req: Request): Promise<OrgContext> {
  const ctx = await orgContext(control, req);
  if (ctx.org.standing !== 'admin') {
    throw new PermissionDeniedError(
      'permission denied: only organization admins (owners, or admins of every workspace) see this page',
    );
  }
  return ctx;
}
