import type { Services } from '../app/services.js';
import type { Actor } from '../domain/types.js';
import { NotFoundError } from '../errors.js';
import type { Command, Flags } from './commands.js';

const text = (flags: Flags, name: string): string => {
  const value = flags[name];
  return typeof value === 'string' ? value.trim() : '';
};

/** The user as they act in the organization: a member's roles, client `cli`; anyone else "not found". */
export async function actorOf(services: Services, flags: Flags): Promise<Actor> {
  const orgId = text(flags, 'org');
  const org = await services.control.orgs.get(orgId);
  if (!org) throw new NotFoundError('organization', { org: orgId });
  const user = await services.control.users.byEmail(text(flags, 'user'));
  if (!user) throw new NotFoundError('user', { email: text(flags, 'user') });
  const principal = await services.control.members.principal(org.id, user.id);
  // Not a member: nothing of the organization is theirs to see.
  if (!principal) throw new NotFoundError('artifact');
  return { principal, client: 'cli' };
}

const refList = (refs: readonly { id: string; type: string; title: string }[]) => refs.map(({ id, type, title }) => ({ id, type, title }));

/** Changes to one organization's artifacts, each one commit authored by `--user`. */
export const ARTIFACT_COMMANDS: readonly Command[] = [
  {
    name: 'artifact delete',
    usage: 'artifact delete --org ORG_ID --id ARTIFACT_ID [--recursive] --user EMAIL   one commit; with --recursive its descendants too',
    flags: { org: { type: 'string' }, id: { type: 'string' }, recursive: { type: 'boolean' }, user: { type: 'string' } },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await services.specs.delete(actor, text(flags, 'id'), { recursive: flags.recursive === true });
      return { deleted: done.artifact, descendants: refList(done.descendants), commit: done.commit };
    },
  },
  {
    name: 'artifact restore',
    usage: 'artifact restore --org ORG_ID --id ARTIFACT_ID --user EMAIL   bring back a deleted artifact with the descendants deleted with it',
    flags: { org: { type: 'string' }, id: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const done = await services.specs.restoreDeleted(actor, text(flags, 'id'));
      return { restored: done.artifact, descendants: refList(done.descendants), commit: done.commit, url: done.url };
    },
  },
  {
    name: 'artifact move',
    usage: 'artifact move --org ORG_ID --id ID --to PARENT_ID|root --user EMAIL   another parent of the allowed type; a folder into another folder',
    flags: { org: { type: 'string' }, id: { type: 'string' }, to: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'to', 'user'],
    run: async (services, flags) => {
      const actor = await actorOf(services, flags);
      const id = text(flags, 'id');
      const to = text(flags, 'to') === 'root' ? null : text(flags, 'to');
      const isFolder = (await services.specs.listFolders(actor)).some((f) => f.id === id.toLowerCase());
      if (isFolder) {
        const folder = await services.specs.moveFolder(actor, id, to);
        return { movedFolder: { id: folder.id, name: folder.name }, parentFolderId: folder.parentFolderId, commit: folder.commit };
      }
      const done = await services.specs.move(actor, id, to);
      return { moved: done.artifact, parentId: done.parentId, descendants: refList(done.descendants), commit: done.commit };
    },
  },
  {
    name: 'folder rename',
    usage: 'folder rename --org ORG_ID --id FOLDER_ID --name NAME --user EMAIL',
    flags: { org: { type: 'string' }, id: { type: 'string' }, name: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'name', 'user'],
    run: async (services, flags) => {
      const done = await services.specs.renameFolder(await actorOf(services, flags), text(flags, 'id'), text(flags, 'name'));
      return { folder: { id: done.id, name: done.name }, commit: done.commit };
    },
  },
  {
    name: 'folder delete',
    usage: 'folder delete --org ORG_ID --id FOLDER_ID --user EMAIL   only an empty folder',
    flags: { org: { type: 'string' }, id: { type: 'string' }, user: { type: 'string' } },
    required: ['org', 'id', 'user'],
    run: async (services, flags) => {
      const done = await services.specs.deleteFolder(await actorOf(services, flags), text(flags, 'id'));
      return { deletedFolder: { id: done.id, name: done.name }, commit: done.commit };
    },
  },
];
