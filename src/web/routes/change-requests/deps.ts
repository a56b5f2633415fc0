import type { Request } from 'express';
import type { Config } from '../../../config/index.js';
import type { ControlPlane } from '../../../control/types.js';
import type { ChangeRequests } from '../../../domain/index.js';
import { NotFoundError } from '../../../errors.js';

export interface ChangeRequestRouteDeps {
  readonly control: ControlPlane;
  readonly config: Config;
  readonly changeRequests: ChangeRequests;
}

/** `:number` of the path; anything but a plain positive number names no change request. */
export function numberParam(req: Request): number {
  const value = String(req.params.number ?? '');
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new NotFoundError('change request');
  return Number(value);
}
