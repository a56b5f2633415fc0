import { InvalidInputError } from '../errors.js';
import { orgOf, text, userByEmail, type Command } from './command.js';

/** `specbase audit`: an organization's audit log, newest first, filtered and paged as the web page does. */
export const AUDIT_COMMAND: Command = {
  name: 'audit',
  usage:
    'audit --org ORG_ID [--since DATE] [--until DATE] [--user EMAIL] [--client NAME] [--action ACTION] [--artifact ID] [--limit N] [--cursor C]   newest first',
  flags: {
    org: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    user: { type: 'string' },
    client: { type: 'string' },
    action: { type: 'string' },
    artifact: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
  },
  required: ['org'],
  run: async (services, flags) => {
    const org = await orgOf(services, text(flags, 'org'));
    const user = text(flags, 'user') ? await userByEmail(services, text(flags, 'user')) : undefined;
    const limit = flags.limit === undefined ? 100 : Number(flags.limit);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 1000))
      throw new InvalidInputError('--limit must be a whole number from 1 to 1000');
    const optional = (name: string) => (text(flags, name) ? text(flags, name) : undefined);
    const page = await services.control.audit.page({
      orgId: org.id,
      limit,
      ...(user ? { userId: user.id } : {}),
      ...Object.fromEntries(
        (['since', 'until', 'client', 'action', 'cursor'] as const).flatMap((name) =>
          optional(name) ? [[name, optional(name)]] : [],
        ),
      ),
      ...(optional('artifact') ? { artifactId: optional('artifact') } : {}),
    });
    return { orgId: org.id, entries: page.entries, next: page.next ?? null };
  },
};
