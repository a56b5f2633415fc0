import { z } from 'zod';
import { changeRequestsOf } from '../review/context.js';
import { changeRequestFields } from '../review/schemas.js';
import type { AnyToolDef, AppRendering, ToolContext } from '../types.js';

/**
 * The change request view's own tools: what it shows, and Merge and Close. Only the app calls
 * them (`visibility: ["app"]`): a person presses the button, the model never can. Each checks
 * the caller's roles and the four-eyes rule as the web application does.
 */

const input = z.object({ number: z.number().int().min(1).max(999_999_999) });

function rendering(ctx: ToolContext): AppRendering {
  if (!ctx.render) throw new Error('app tools need the app rendering');
  return ctx.render;
}

const summaryOutput = z.object({
  number: z.number(),
  title: z.string(),
  description: z.string(),
  state: z.string(),
  author: z.string().nullable(),
  branch: z.string(),
  url: z.string(),
});

export const changeRequestViewTool: AnyToolDef = {
  name: 'specbase_app_change_request',
  title: 'Change request view',
  kind: 'review',
  description: 'Change request view data',
  appOnly: { serves: ['review'] },
  input,
  output: summaryOutput.extend({
    mergeable: z.boolean(),
    notMergeableBecause: z.string().optional(),
    files: z.array(z.object({ title: z.string(), status: z.string(), html: z.string() })),
  }),
  async run(ctx, args) {
    const detail = await changeRequestsOf(ctx).detail(ctx.actor, Number(args.number));
    const render = rendering(ctx);
    const files = detail.files.map((file) => ({
      title: file.title ?? file.path,
      status: file.status,
      html: render.diff(file.diff, `${file.status} ${file.title ?? file.path}`),
    }));
    return {
      structured: {
        ...changeRequestFields(detail),
        mergeable: detail.merge.allowed,
        ...(detail.merge.reason ? { notMergeableBecause: detail.merge.reason } : {}),
        files,
      },
      text: `Change request #${detail.number} "${detail.title}": ${files.length} file${files.length === 1 ? '' : 's'}`,
    };
  },
};

export const mergeChangeRequestTool: AnyToolDef = {
  name: 'specbase_app_merge_change_request',
  title: 'Merge a change request',
  kind: 'review',
  hints: { destructive: true },
  description: 'Merge a change request',
  appOnly: { serves: ['review'] },
  input,
  output: summaryOutput.extend({ commit: z.string(), kind: z.string() }),
  async run(ctx, args) {
    const merged = await changeRequestsOf(ctx).merge(ctx.actor, Number(args.number));
    return {
      structured: { ...changeRequestFields(merged.changeRequest), commit: merged.commit, kind: merged.kind },
      text: `Merged change request #${merged.changeRequest.number} onto main (${merged.kind}, ${merged.commit.slice(0, 7)})`,
      commit: merged.commit,
    };
  },
};

export const closeChangeRequestTool: AnyToolDef = {
  name: 'specbase_app_close_change_request',
  title: 'Close a change request',
  kind: 'review',
  description: 'Close a change request unmerged',
  appOnly: { serves: ['review'] },
  input,
  output: summaryOutput,
  async run(ctx, args) {
    const closed = await changeRequestsOf(ctx).close(ctx.actor, Number(args.number));
    return {
      structured: changeRequestFields(closed),
      text: `Closed change request #${closed.number} without merging it`,
    };
  },
};
