import { z } from 'zod';
import type { ChangeSummary } from '../../domain/types.js';
import type { AnyToolDef } from '../types.js';
import { anyArtifactIdParam } from './schemas.js';

const entryOf = (entry: ChangeSummary) => ({
  commit: entry.commit,
  verb: entry.verb,
  title: entry.title,
  author: entry.author.name,
  authorEmail: entry.author.email,
  client: entry.client ?? null,
  at: entry.authoredAt,
  added: entry.added,
  removed: entry.removed,
  ...(entry.summary ? { summary: entry.summary } : {}),
});

const line = (entry: ReturnType<typeof entryOf>) =>
  `- ${entry.commit} ${entry.at} ${entry.verb} by ${entry.author}${entry.client ? ` via ${entry.client}` : ''}: +${entry.added} -${entry.removed}${entry.summary ? ` "${entry.summary}"` : ''}`;

export const readHistoryTool: AnyToolDef = {
  name: 'specbase_read_history',
  title: 'Read the history of an artifact',
  kind: 'manage',
  hints: { readOnly: true },
  description:
    "An artifact's changes, newest first: commit, what was done, author, client, time, lines added and removed. " +
    'A commit is what specbase_revert_change undoes.',
  input: z.object({
    artifactId: anyArtifactIdParam,
    limit: z.number().int().min(1).max(100).default(20).describe('Changes per page (1-100)'),
    cursor: z.string().describe('The next cursor of the previous page').optional(),
  }),
  output: z.object({ entries: z.array(z.looseObject({})), next: z.string().optional() }),
  async run({ specs, actor }, args) {
    const id = String(args.artifactId);
    const page = await specs.historyPage(actor, id, {
      limit: Number(args.limit),
      ...(typeof args.cursor === 'string' ? { cursor: args.cursor } : {}),
    });
    const entries = page.entries.map(entryOf);
    const more = page.next ? `\nOlder changes: call again with cursor ${page.next}.` : '';
    return {
      structured: { entries, ...(page.next ? { next: page.next } : {}) },
      text: (entries.length ? entries.map(line).join('\n') : 'No changes.') + more,
      artifactId: id,
    };
  },
};
