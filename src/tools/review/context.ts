import { ToolNotOfferedError } from '../../errors.js';
import type { ChangeRequests } from '../../domain/index.js';
import type { ToolContext } from '../types.js';

/** The change requests a review tool works with; this server offers them wherever it has branches. */
export function changeRequestsOf(ctx: ToolContext): ChangeRequests {
  if (!ctx.changeRequests) throw new ToolNotOfferedError('change requests are not offered by this server');
  return ctx.changeRequests;
}
