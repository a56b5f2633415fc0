import type { Request } from 'express';
import type { ControlPlane } from '../../control/types.js';
import type { Located, SpecService } from '../../domain/types.js';
import { NotFoundError, PermissionDeniedError } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { orgContext, type OrgContext } from '../context.js';

export interface ArtifactContext extends OrgContext, Located {
  readonly id: string;
}

/** The organization, and where the artifact `:id` sits in what the user may read. */
export async function artifactContext(
  specs: SpecService,
  control: ControlPlane,
  req: Request,
): Promise<ArtifactContext> {
  const ctx = await orgContext(control, req);
  const id = String(req.params.id ?? '').toLowerCase();
  if (!isUuid(id)) throw new NotFoundError('artifact');
  const located = await specs.locate(ctx.actor, id);
  if (!located) throw new NotFoundError('artifact');
  return { ...ctx, ...located, id };
}

/** A commit id from the query or form; anything else is simply not a version of this artifact. */
export function commitParam(value: unknown): string {
  if (typeof value !== 'string' || !/^[0-9a-f]{40}$/i.test(value)) throw new NotFoundError('version');
  return value.toLowerCase();
}

/** As artifactContext, for pages that change the artifact: a reader without write access is refused. */
export async function writableArtifactContext(
  specs: SpecService,
  control: ControlPlane,
  req: Request,
): Promise<ArtifactContext> {
  const ctx = await artifactContext(specs, control, req);
  if (!(await specs.canWrite(ctx.actor, ctx.id)))
    throw new PermissionDeniedError('permission denied: you can read this artifact but not change it');
  return ctx;
}
