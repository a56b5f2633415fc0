import { z } from 'zod';
import type { AnyToolDef } from '../types.js';
import { changeRequestsOf } from './context.js';
import { changeRequestFields, changeRequestLine } from './schemas.js';

export const listChangeRequestsTool: AnyToolDef = {
  name: 'specbase_list_change_requests',
  title: 'List change requests',
  kind: 'review',
  hints: { readOnly: true },
  description:
    "The organization's change requests you may read, newest first: number, title, state, author, review page.",
  input: z.object({
    state: z.enum(['open', 'merged', 'closed']).describe('Only those in this state').optional(),
  }),
  output: z.object({ changeRequests: z.array(z.looseObject({})) }),
  async run(ctx, args) {
    const state = args.state as 'open' | 'merged' | 'closed' | undefined;
    const found = await changeRequestsOf(ctx).list(ctx.actor, state ? { state } : {});
    return {
      structured: { changeRequests: found.map(changeRequestFields) },
      text: found.length ? found.map((cr) => `- ${changeRequestLine(cr)}`).join('\n') : 'No change requests.',
    };
  },
};
