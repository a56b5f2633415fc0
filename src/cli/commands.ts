import { provisionOrganization } from '../app/provision.js';
import type { Services } from '../app/services.js';
import type { WorkspaceRole } from '../access/principal.js';
import { openGrantAdmin } from '../auth/grant-admin.js';
import { PERSONAL_ACCESS_TOKEN_DAYS } from '../control/index.js';
import { ensureDemo } from '../demo/seed.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import { mcpEndpoints } from '../app/endpoints.js';
import { orgOf, recordCli, text, userByEmail, workspaceOf, type Command, type Flags } from './command.js';
import { MEMBER_COMMANDS } from './member-commands.js';
import { readPassword } from './prompt.js';
import { AUDIT_COMMAND } from './audit-command.js';
import { WEBHOOK_COMMANDS } from './webhook-commands.js';

export type { Command, Flags } from './command.js';

const ROLES: readonly WorkspaceRole[] = ['viewer', 'editor', 'admin'];

/**
 * When a new token expires: in `--expires-in-days` days (`--expires-days`, its older name), never
 * with `--no-expiry`, and otherwise after the default lifetime (the control plane's).
 */
function tokenExpiry(flags: Flags): { expiresAt?: Date | null } {
  const given = flags['expires-in-days'] ?? flags['expires-days'];
  if (flags['no-expiry'] === true) {
    if (given !== undefined) throw new InvalidInputError('give either --expires-in-days or --no-expiry, not both');
    return { expiresAt: null };
  }
  if (given === undefined) return {};
  const days = Number(given);
  if (!(Number.isInteger(days) && days > 0 && days <= 3650)) {
    throw new InvalidInputError('--expires-in-days must be a whole number of days from 1 to 3650');
  }
  return { expiresAt: new Date(Date.now() + days * 86_400_000) };
}

/** The user's live token or grant with this id, or "not found". */
async function credentialOf(services: Services, kind: 'token' | 'grant', userId: string, id: string) {
  const found =
    kind === 'token'
      ? (await services.control.tokens.list(userId)).find((t) => t.id === id && !t.revokedAt)
      : (await (await openGrantAdmin(services.control.db, services.config.baseUrl)).list([userId])).find(
          (g) => g.id === id,
        );
  if (!found) throw new NotFoundError(kind === 'token' ? 'active token' : 'active grant', { id });
  return { kind, id };
}

/** How each credential stands in one organization: last use there, blocked there. */
async function inOrg<T extends { id: string }>(services: Services, kind: 'token' | 'grant', orgId: string, items: T[]) {
  const standing = (await services.control.credentialOrgs.list(orgId)).filter((s) => s.kind === kind);
  return items.map((item) => {
    const here = standing.find((s) => s.id === item.id);
    return { ...item, inOrg: { orgId, lastUsedAt: here?.lastUsedAt ?? null, blockedAt: here?.blockedAt ?? null } };
  });
}

/** `token block|unblock`, `grant block|unblock`: in one organization only, audited. */
function blockCommand(kind: 'token' | 'grant', verb: 'block' | 'unblock'): Command {
  return {
    name: `${kind} ${verb}`,
    usage: `${kind} ${verb} --user EMAIL --org ORG_ID --id ${kind.toUpperCase()}_ID${verb === 'block' ? `   refuse it in this organization only` : ''}`,
    flags: { user: { type: 'string' }, org: { type: 'string' }, id: { type: 'string' } },
    required: ['user', 'org', 'id'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      const org = await orgOf(services, text(flags, 'org'));
      const credential = await credentialOf(services, kind, user.id, text(flags, 'id'));
      const changed =
        verb === 'block'
          ? await services.control.credentialOrgs.block(credential, org.id, 'cli')
          : await services.control.credentialOrgs.unblock(credential, org.id);
      if (changed) {
        await services.control.audit.record({
          kind: 'cli',
          userId: null,
          orgId: org.id,
          action: `${kind}.${verb}`,
          artifactId: null,
          commit: null,
          client: 'cli',
          durationMs: null,
          outcome: 'ok',
          detail: `${verb === 'block' ? 'blocked' : 'unblocked'} in this organization the ${kind === 'token' ? 'personal access token' : 'assistant authorization'} ${credential.id} of ${user.email}`,
        });
      }
      return {
        [kind === 'token' ? 'tokenId' : 'grantId']: credential.id,
        orgId: org.id,
        blocked: verb === 'block',
        changed,
      };
    },
  };
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'init',
    usage: 'init                          create the data directory and database',
    flags: {},
    run: async (services) => ({ dataDir: services.config.dataDir }),
  },
  {
    name: 'org create',
    usage: 'org create --name NAME --owner EMAIL',
    flags: { name: { type: 'string' }, owner: { type: 'string' } },
    required: ['name', 'owner'],
    run: async (services, flags) => {
      const owner = await userByEmail(services, text(flags, 'owner'));
      const { org, defaultWorkspace, productId } = await provisionOrganization(services, {
        name: text(flags, 'name'),
        owner,
      });
      return { orgId: org.id, name: org.name, defaultWorkspaceId: defaultWorkspace.id, productId };
    },
  },
  {
    name: 'org list',
    usage: 'org list',
    flags: {},
    run: async (services) => ({ organizations: await services.control.orgs.list() }),
  },
  {
    name: 'workspace create',
    usage: 'workspace create --org ORG_ID --name NAME',
    flags: { org: { type: 'string' }, name: { type: 'string' } },
    required: ['org', 'name'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const workspace = await services.control.workspaces.create({ orgId: org.id, name: text(flags, 'name') });
      return { workspaceId: workspace.id, orgId: org.id, name: workspace.name };
    },
  },
  {
    name: 'user add',
    usage:
      'user add --email EMAIL --name NAME [--password PASSWORD]   (prompts on a terminal when --password is absent)',
    flags: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
    required: ['email', 'name'],
    run: async (services, flags) => {
      const email = text(flags, 'email');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new InvalidInputError(`not an email address: ${email}`);
      const existing = await services.control.users.byEmail(email);
      const user = await services.control.users.upsert({
        issuer: existing?.issuer ?? 'local',
        subject: existing?.subject ?? newId(),
        email,
        name: text(flags, 'name'),
      });
      const password = typeof flags.password === 'string' ? flags.password : await readPassword();
      if (password !== undefined) {
        if (password.length < 8) throw new InvalidInputError('a password needs at least 8 characters');
        await services.control.users.setPassword(user.id, password);
      }
      return { userId: user.id, email: user.email, name: user.name, password: password !== undefined };
    },
  },
  {
    name: 'member grant',
    usage: 'member grant --org ORG_ID --user EMAIL --workspace WORKSPACE --role viewer|editor|admin',
    flags: {
      org: { type: 'string' },
      user: { type: 'string' },
      workspace: { type: 'string' },
      role: { type: 'string' },
    },
    required: ['org', 'user', 'workspace', 'role'],
    run: async (services, flags) => {
      const role = text(flags, 'role') as WorkspaceRole;
      if (!ROLES.includes(role)) throw new InvalidInputError(`role must be one of ${ROLES.join(', ')}`);
      const org = await orgOf(services, text(flags, 'org'));
      const user = await userByEmail(services, text(flags, 'user'));
      const workspace = await workspaceOf(services, org.id, text(flags, 'workspace'));
      await services.control.members.grant({ orgId: org.id, userId: user.id, workspaceId: workspace.id, role });
      return { orgId: org.id, userId: user.id, workspaceId: workspace.id, role };
    },
  },
  {
    name: 'member owner',
    usage: 'member owner --org ORG_ID --user EMAIL [--revoke]',
    flags: { org: { type: 'string' }, user: { type: 'string' }, revoke: { type: 'boolean' } },
    required: ['org', 'user'],
    run: async (services, flags) => {
      const org = await orgOf(services, text(flags, 'org'));
      const user = await userByEmail(services, text(flags, 'user'));
      await services.control.members.setOwner(org.id, user.id, flags.revoke !== true);
      return { orgId: org.id, userId: user.id, owner: flags.revoke !== true };
    },
  },
  {
    name: 'token create',
    usage: `token create --user EMAIL --name NAME [--expires-in-days DAYS | --no-expiry] [--readonly]   (default: ${PERSONAL_ACCESS_TOKEN_DAYS} days; --readonly: MCP connections made with it only read)`,
    flags: {
      user: { type: 'string' },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
      'expires-days': { type: 'string' },
      'no-expiry': { type: 'boolean' },
      readonly: { type: 'boolean' },
    },
    required: ['user', 'name'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      const readOnly = flags.readonly === true;
      const { secret, token } = await services.control.tokens.create({
        userId: user.id,
        name: text(flags, 'name'),
        ...tokenExpiry(flags),
        readOnly,
      });
      return { token: secret, tokenId: token.id, expiresAt: token.expiresAt, readOnly: token.readOnly };
    },
  },
  {
    name: 'migrate-layout',
    usage:
      'migrate-layout --org ORG_ID | --all   move repositories in the first layout to the sharded one (also done on first open)',
    flags: { org: { type: 'string' }, all: { type: 'boolean' } },
    run: async (services, flags) => {
      const one = text(flags, 'org');
      if (Boolean(one) === (flags.all === true))
        throw new InvalidInputError('name one organization with --org ORG_ID, or all of them with --all');
      const orgIds = one
        ? [(await orgOf(services, one)).id]
        : (await services.control.orgs.list()).map((org) => org.id);
      const organizations = [];
      for (const orgId of orgIds) {
        const migration = await services.store.migrateLayout(orgId);
        organizations.push({
          orgId,
          migrated: migration !== undefined,
          commit: migration?.commit ?? null,
          moved: migration?.moved ?? 0,
        });
      }
      return { organizations };
    },
  },
  {
    name: 'token list',
    usage:
      "token list --user EMAIL [--org ORG_ID]   the user's personal access tokens (never their secrets); with --org, their use and block there",
    flags: { user: { type: 'string' }, org: { type: 'string' } },
    required: ['user'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      const tokens = await services.control.tokens.list(user.id);
      return {
        tokens: text(flags, 'org')
          ? await inOrg(services, 'token', (await orgOf(services, text(flags, 'org'))).id, tokens)
          : tokens,
      };
    },
  },
  {
    name: 'token revoke',
    usage: 'token revoke --user EMAIL --id TOKEN_ID',
    flags: { user: { type: 'string' }, id: { type: 'string' } },
    required: ['user', 'id'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      if (!(await services.control.tokens.revoke(text(flags, 'id'), user.id))) {
        throw new NotFoundError('active token', { tokenId: text(flags, 'id') });
      }
      // The user's own account event, shown to the admins of their organizations.
      await recordCli(services, {
        orgId: null,
        userId: user.id,
        action: 'token.revoke',
        detail: `revoked the personal access token ${text(flags, 'id')} of ${user.email} everywhere`,
      });
      return { revoked: text(flags, 'id') };
    },
  },
  {
    name: 'grant list',
    usage:
      'grant list --user EMAIL [--org ORG_ID]   assistants the user connected through OAuth; with --org, their use and block there',
    flags: { user: { type: 'string' }, org: { type: 'string' } },
    required: ['user'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      const grants = await (await openGrantAdmin(services.control.db, services.config.baseUrl)).list([user.id]);
      return {
        grants: text(flags, 'org')
          ? await inOrg(services, 'grant', (await orgOf(services, text(flags, 'org'))).id, grants)
          : grants,
      };
    },
  },
  {
    name: 'grant revoke',
    usage: 'grant revoke --user EMAIL --id GRANT_ID',
    flags: { user: { type: 'string' }, id: { type: 'string' } },
    required: ['user', 'id'],
    run: async (services, flags) => {
      const user = await userByEmail(services, text(flags, 'user'));
      if (
        !(await (
          await openGrantAdmin(services.control.db, services.config.baseUrl)
        ).revoke(text(flags, 'id'), [user.id]))
      ) {
        throw new NotFoundError('active grant', { grantId: text(flags, 'id') });
      }
      await recordCli(services, {
        orgId: null,
        userId: user.id,
        action: 'grant.revoke',
        detail: `revoked the assistant authorization ${text(flags, 'id')} of ${user.email} everywhere`,
      });
      return { revoked: text(flags, 'id') };
    },
  },
  ...MEMBER_COMMANDS,
  AUDIT_COMMAND,
  ...WEBHOOK_COMMANDS,
  blockCommand('token', 'block'),
  blockCommand('token', 'unblock'),
  blockCommand('grant', 'block'),
  blockCommand('grant', 'unblock'),
  {
    name: 'demo',
    usage: 'demo                          create (once) and show the demo organization and account',
    flags: {},
    run: async (services) => {
      const { demo, created } = await ensureDemo(services);
      return { ...demo, ...mcpEndpoints(services.config.baseUrl), created };
    },
  },
];
