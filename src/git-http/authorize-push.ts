import { canWrite } from '../access/index.js';
import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import { PermissionDeniedError } from '../errors.js';

/**
 * A push may only change workspaces where the pusher is an editor (each pushed file is checked
 * against its workspace later); one who may change none is refused before sending anything.
 */
export async function authorizePush(control: Pick<ControlPlane, 'workspaces'>, principal: Principal): Promise<void> {
  const workspaces = await control.workspaces.list(principal.orgId);
  if (!workspaces.some((workspace) => canWrite(principal, workspace.id))) {
    throw new PermissionDeniedError(
      'pushing needs the editor role in a workspace of this organization; your role only lets you read it (clone and fetch)',
    );
  }
}
