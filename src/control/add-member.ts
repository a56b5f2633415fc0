import type { WorkspaceRole } from '../access/principal.js';
import { newId } from '../ids.js';
import { normalizedEmail } from './input.js';
import type { ControlPlane, User } from './types.js';
import { awaitingSubject } from './users.js';

/** The issuer of the embedded provider's accounts (auth's LOCAL_ISSUER; control may not import auth). */
const LOCAL_ISSUER_NAME = 'local';

export interface AddedMember {
  readonly user: User;
  /** Embedded sign-in, no password yet: the link that lets them set one, once. */
  readonly invitation?: { readonly secret: string; readonly expiresAt: string };
  /** External sign-in, never signed in: the membership waits for their first sign-in. */
  readonly awaitingSignIn: boolean;
}

/**
 * Gives a person a role in a workspace by their email: an existing account as it is; else a new
 * one for the sign-in in use (`issuer`: 'local' for the embedded provider, or the external
 * issuer). A local account without a password gets an invitation to set one.
 */
export async function addMember(
  control: Pick<ControlPlane, 'users' | 'members' | 'invitations'>,
  input: {
    orgId: string;
    email: string;
    name: string;
    workspaceId: string;
    role: WorkspaceRole;
    issuer: string;
    addedBy: string | null;
  },
): Promise<AddedMember> {
  const email = normalizedEmail(input.email);
  const user =
    (await control.users.byEmail(email)) ??
    (await control.users.upsert({
      issuer: input.issuer,
      subject: input.issuer === LOCAL_ISSUER_NAME ? newId() : awaitingSubject(email),
      email,
      name: input.name.trim() || email,
    }));
  await control.members.grant({
    orgId: input.orgId,
    userId: user.id,
    workspaceId: input.workspaceId,
    role: input.role,
  });
  if (user.issuer === LOCAL_ISSUER_NAME && !(await control.invitations.hasPassword(user.id))) {
    const invitation = await control.invitations.create({
      userId: user.id,
      orgId: input.orgId,
      createdBy: input.addedBy,
    });
    return { user, invitation, awaitingSignIn: false };
  }
  return { user, awaitingSignIn: user.subject === awaitingSubject(email) };
}
