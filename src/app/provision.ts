import { productTemplate } from '../artifacts/index.js';
import type { Organization, User, Workspace } from '../control/types.js';
import { InvalidInputError } from '../errors.js';
import type { Services } from './services.js';

export interface ProvisionedOrganization {
  readonly org: Organization;
  readonly defaultWorkspace: Workspace;
  readonly productId: string;
}

/**
 * An organization lives in two places: the control plane (members, workspaces) and its Git
 * repository, whose Product belongs to the default workspace the control plane assigns.
 */
export async function provisionOrganization(
  services: Pick<Services, 'control' | 'store'>,
  input: { name: string; owner: User; productTitle?: string; productBody?: string; id?: string },
): Promise<ProvisionedOrganization> {
  const name = input.name.trim();
  if (!name) throw new InvalidInputError('an organization needs a name');
  const { org, defaultWorkspace } = await services.control.orgs.create({ ...(input.id ? { id: input.id } : {}), name });
  await services.control.members.setOwner(org.id, input.owner.id, true);
  const productTitle = input.productTitle?.trim() || name;
  const init = await services.store.initOrganization(
    org.id,
    {
      productTitle,
      productBody: input.productBody ?? productTemplate({ title: productTitle }),
      workspaceId: defaultWorkspace.id,
    },
    { author: { name: input.owner.name, email: input.owner.email }, client: 'cli' },
  );
  return { org, defaultWorkspace, productId: init.artifact.id };
}
