import type { Services } from '../app/services.js';
import { NotFoundError } from '../errors.js';

export type Flags = Record<string, string | boolean | undefined>;

export interface Command {
  readonly name: string;
  readonly usage: string;
  readonly flags: Record<string, { type: 'string' | 'boolean' }>;
  readonly required?: readonly string[];
  /** The flag a command's one positional argument fills (`import ... DIR`); none takes one otherwise. */
  readonly positional?: string;
  run(services: Services, flags: Flags): Promise<Record<string, unknown>>;
}

export const text = (flags: Flags, name: string): string => {
  const value = flags[name];
  return typeof value === 'string' ? value.trim() : '';
};

export async function orgOf(services: Services, id: string) {
  const org = await services.control.orgs.get(id);
  if (!org) throw new NotFoundError('organization', { org: id });
  return org;
}

export async function userByEmail(services: Services, email: string) {
  const user = await services.control.users.byEmail(email);
  if (!user) throw new NotFoundError('user', { email });
  return user;
}

/** A workspace of the organization by id or (case-insensitive) name. */
export async function workspaceOf(services: Services, orgId: string, ref: string) {
  const workspaces = await services.control.workspaces.list(orgId);
  const match = workspaces.find((w) => w.id === ref || w.name.toLowerCase() === ref.toLowerCase());
  if (!match) throw new NotFoundError('workspace', { workspace: ref });
  return match;
}

/** An administrator's action from the command line, in the audit log (kind and client `cli`). */
export async function recordCli(
  services: Services,
  entry: {
    orgId: string | null;
    userId?: string | null;
    action: string;
    detail: string;
    artifactId?: string | null;
    commit?: string | null;
  },
): Promise<void> {
  await services.control.audit.record({
    kind: 'cli',
    userId: entry.userId ?? null,
    orgId: entry.orgId,
    action: entry.action,
    artifactId: entry.artifactId ?? null,
    commit: entry.commit ?? null,
    client: 'cli',
    durationMs: null,
    outcome: 'ok',
    detail: entry.detail,
  });
}
