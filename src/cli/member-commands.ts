import { isWorkspaceRole } from '../access/index.js';
import { addMember } from '../control/index.js';
import { InvalidInputError } from '../errors.js';
import { orgOf, recordCli, text, userByEmail, workspaceOf, type Command } from './command.js';

/** What the Members page does, from the command line: the same control-plane calls and rules. */
export const MEMBER_COMMANDS: readonly Command[] = [
  {
    name: 'member add',
    usage:
      'member add --org ORG_ID --email EMAIL [--name NAME] --workspace WORKSPACE --role viewer|editor|admin   (a new local account gets a link to set its password)',
    flags: {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      workspace: { type: 'string' },
      role: { type: 'string' },
    },
    required: ['org', 'email', 'workspace', 'role'],
    run: async (services, flags) => {
      const role = text(flags, 'role');
      if (!isWorkspaceRole(role)) throw new InvalidInputError('role must be one of viewer, editor, admin');
      const org = await orgOf(services, text(flags, 'org'));
      const workspace = await workspaceOf(services, org.id, text(flags, 'workspace'));
      const added = await addMember(services.control, {
        orgId: org.id,
        email: text(flags, 'email'),
        name: text(flags, 'name'),
        workspaceId: workspace.id,
        role,
        issuer: services.config.oidc?.issuer ?? 'local',
        addedBy: null,
      });
      await recordCli(services, {
        orgId: org.id,
        action: 'member.add',
        detail: `gave ${added.user.email} the role ${role} in ${workspace.name}`,
      });
      return {
        userId: added.user.id,
        email: added.user.email,
        workspaceId: workspace.id,
        role,
        invitationUrl: added.invitation ? `${services.config.baseUrl}/invite/${added.invitation.secret}` : null,
        awaitingSignIn: added.awaitingSignIn,
      };
    },
  },
  {
    name: 'member remove',
    usage: 'member remove --org ORG_ID --user EMAIL   every role and the ownership there (never the last owner)',
    flags: { org: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'user'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const user = await userByEmail(services, text(flags, 'user'));
      await services.control.members.remove({ orgId: org.id, userId: user.id });
      await recordCli(services, { orgId: org.id, action: 'member.remove', detail: `removed ${user.email}` });
      return { orgId: org.id, userId: user.id, removed: true };
    },
  },
  {
    name: 'workspace rename',
    usage: 'workspace rename --org ORG_ID --workspace WORKSPACE --name NAME',
    flags: { org: { type: 'string' }, workspace: { type: 'string' }, name: { type: 'string' } },
    required: ['org', 'workspace', 'name'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const before = await workspaceOf(services, org.id, text(flags, 'workspace'));
      const after = await services.control.workspaces.rename({
        orgId: org.id,
        workspaceId: before.id,
        name: text(flags, 'name'),
      });
      await recordCli(services, {
        orgId: org.id,
        action: 'workspace.rename',
        detail: `renamed the workspace ${before.name} to ${after.name}`,
      });
      return { workspaceId: after.id, orgId: org.id, name: after.name };
    },
  },
];
