import type { Services } from '../app/services.js';
import type { Actor } from '../domain/types.js';
import { NotFoundError } from '../errors.js';
import { orgOf, recordCli, text, userByEmail, type Command, type Flags } from './command.js';

/** The user as they act in the organization: a member's roles, client `cli`; anyone else "not found". */
export async function actorOf(services: Services, flags: Flags): Promise<Actor> {
  const org = await orgOf(services, text(flags, 'org'));
  const user = await userByEmail(services, text(flags, 'user'));
  const principal = await services.control.members.principal(org.id, user.id);
  // Not a member: nothing of the organization is theirs to see.
  if (!principal) throw new NotFoundError('artifact');
  return { principal, client: 'cli' };
}

/** A change made on the command line, in the audit log as the web's and the tools' are. */
async function audited<T extends { commit: string }>(
  services: Services,
  actor: Actor,
  action: string,
  artifactId: string,
  done: T,
): Promise<T> {
  const { orgId, userId } = actor.principal;
  await recordCli(services, {
    orgId,
    userId,
    action: `cli.${action}`,
    detail: `${action} ${artifactId}`,
    artifactId,
    commit: done.commit,
  });
  return done;
}

const refList = (refs: readonly { id: string; type: string; title: string }[]) =>
  refs.map(({ id, type, title }) => ({ id, type, title }));

/** Changes to one organization's artifacts, each one commit authored by `--user`. */
export const ARTIFACT_COMMANDS: readonly Command[] = [
  {
    name: 'artifact delete',
    usage:
      'artifact delete --org ORG_ID --id ARTIFACT_ID [--recursive] --user EMAIL   one commit; with --recursive its descendants too',
    flags: {
      org: { type: 'string' },
      id: { type: 'string' },
      recursive: { type: 'boolean' },
      user: { type: 'string' },
    },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await audited(
        services,
        actor,
        'delete',
        text(flags, 'id'),
        await services.specs.delete(actor, text(flags, 'id'), { recursive: flags.recursive === true }),
      );
      return { deleted: done.artifact, descendants: refList(done.descendants), commit: done.commit };
    },
  },
  {
    name: 'artifact restore',
    usage:
      'artifact restore --org ORG_ID --id ARTIFACT_ID --user EMAIL   bring back a deleted artifact with the descendants deleted with it',
    flags: { org: { type: 'string' }, id: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await audited(
        services,
        actor,
        'restore_deleted',
        text(flags, 'id'),
        await services.specs.restoreDeleted(actor, text(flags, 'id')),
      );
      return { restored: done.artifact, descendants: refList(done.descendants), commit: done.commit, url: done.url };
    },
  },
  {
    name: 'artifact move',
    usage:
      'artifact move --org ORG_ID --id ID --to PARENT_ID|root --user EMAIL   another parent of the allowed type; a folder into another folder',
    flags: { org: { type: 'string' }, id: { type: 'string' }, to: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'to', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const id = text(flags, 'id');
      const to = text(flags, 'to') === 'root' ? null : text(flags, 'to');
      const isFolder = (await services.specs.listFolders(actor)).some((f) => f.id === id.toLowerCase());
      if (isFolder) {
        const folder = await audited(
          services,
          actor,
          'folder.move',
          id,
          await services.specs.moveFolder(actor, id, to),
        );
        return {
          movedFolder: { id: folder.id, name: folder.name },
          parentFolderId: folder.parentFolderId,
          commit: folder.commit,
        };
      }
      const done = await audited(services, actor, 'move', id, await services.specs.move(actor, id, to));
      return {
        moved: done.artifact,
        parentId: done.parentId,
        descendants: refList(done.descendants),
        commit: done.commit,
      };
    },
  },
  {
    name: 'folder rename',
    usage: 'folder rename --org ORG_ID --id FOLDER_ID --name NAME --user EMAIL',
    flags: { org: { type: 'string' }, id: { type: 'string' }, name: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'name', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await audited(
        services,
        actor,
        'folder.rename',
        text(flags, 'id'),
        await services.specs.renameFolder(actor, text(flags, 'id'), text(flags, 'name')),
      );
      return { folder: { id: done.id, name: done.name }, commit: done.commit };
    },
  },
  {
    name: 'folder delete',
    usage: 'folder delete --org ORG_ID --id FOLDER_ID --user EMAIL   only an empty folder',
    flags: { org: { type: 'string' }, id: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await audited(
        services,
        actor,
        'folder.delete',
        text(flags, 'id'),
        await services.specs.deleteFolder(actor, text(flags, 'id')),
      );
      return { deletedFolder: { id: done.id, name: done.name }, commit: done.commit };
    },
  },
];
