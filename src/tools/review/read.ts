import { z } from 'zod';
import type { AnyToolDef } from '../types.js';
import { changeRequestsOf } from './context.js';
import { changeRequestFields, changeRequestLine, numberParam } from './schemas.js';

/** The combined diff shown to a model at most: past it, the review page has the rest. */
const MAX_DIFF_CHARS = 60_000;

const detailOutput = z.looseObject({ number: z.number(), files: z.array(z.looseObject({})), diff: z.string() });

export const readChangeRequestTool: AnyToolDef = {
  name: 'specbase_read_change_request',
  title: 'Read a change request',
  kind: 'review',
  hints: { readOnly: true },
  app: 'review',
  description:
    'A change request as its reviewer reads it: the combined unified diff of every artifact it changes since it left main, ' +
    'its commits and its comments, and whether you may merge it.',
  input: z.object({ number: numberParam }),
  output: detailOutput,
  async run(ctx, args) {
    const detail = await changeRequestsOf(ctx).detail(ctx.actor, Number(args.number));
    const files = detail.files.map((file) => ({
      path: file.path,
      status: file.status,
      artifactId: file.artifactId ?? null,
      title: file.title ?? null,
      type: file.type ?? null,
    }));
    let diff = detail.files.map((file) => file.diff).join('\n');
    const cut = diff.length > MAX_DIFF_CHARS;
    if (cut) diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n… (the rest on the review page)`;
    const commits = detail.commits.map((c) => `- ${c.commit.slice(0, 12)} ${c.author.name}: ${c.subject}`);
    const comments = detail.comments.map((c) => `- ${c.author?.name ?? 'unknown'} (${c.createdAt}): ${c.body}`);
    const text = [
      `Change request ${changeRequestLine(detail)}`,
      detail.description,
      `Files (${files.length}): ${files.map((f) => `${f.status} ${f.title ?? f.path}`).join('; ') || 'none yet'}`,
      `Commits:\n${commits.join('\n') || 'none yet'}`,
      comments.length ? `Comments:\n${comments.join('\n')}` : '',
      detail.merge.allowed ? 'You may merge it.' : `You may not merge it: ${detail.merge.reason}.`,
      diff ? `Diff:\n${diff}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return {
      structured: {
        ...changeRequestFields(detail),
        files,
        commits: detail.commits,
        comments: detail.comments.map((c) => ({ author: c.author?.name ?? null, body: c.body, at: c.createdAt })),
        mergeable: detail.merge.allowed,
        ...(detail.merge.reason ? { notMergeableBecause: detail.merge.reason } : {}),
        diff,
      },
      text,
    };
  },
};
