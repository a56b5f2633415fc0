import { z } from 'zod';
import type { AnyToolDef } from '../types.js';
import { changeRequestsOf } from './context.js';
import { changeRequestFields, changeRequestLine, changeRequestOutput } from './schemas.js';

export const openChangeRequestTool: AnyToolDef = {
  name: 'specbase_open_change_request',
  title: 'Open a change request',
  kind: 'review',
  app: 'review',
  description:
    'Opens a change request: a branch of main where changes wait for a person to review and merge them. ' +
    'On a connection working on `new` change requests, your next changes go to it. Returns its number and review page.',
  input: z.object({
    title: z.string().min(1).max(200).describe('What the change is, in a line'),
    description: z.string().max(20_000).describe('Why, and what a reviewer should look at').optional(),
  }),
  output: changeRequestOutput,
  async run(ctx, args) {
    const opened = await changeRequestsOf(ctx).open(ctx.actor, {
      title: String(args.title),
      ...(typeof args.description === 'string' ? { description: args.description } : {}),
    });
    return { structured: changeRequestFields(opened), text: `Opened change request ${changeRequestLine(opened)}` };
  },
};
