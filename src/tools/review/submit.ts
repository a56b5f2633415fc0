import { z } from 'zod';
import { InvalidInputError } from '../../errors.js';
import type { AnyToolDef } from '../types.js';
import { changeRequestsOf } from './context.js';
import { changeRequestFields, changeRequestLine, changeRequestOutput, numberParam } from './schemas.js';

export const submitChangeRequestTool: AnyToolDef = {
  name: 'specbase_submit_change_request',
  title: 'Submit a change request for review',
  kind: 'review',
  hints: { idempotent: true },
  app: 'review',
  description:
    'Says a change request is ready for review, with a summary for the reviewer. Without a number: the draft your changes ' +
    'on this connection went to. A person reviews and merges it in the web application; your next changes open a new one.',
  input: z.object({
    number: numberParam.optional(),
    summary: z.string().min(1).max(20_000).describe('What changed and why, for the reviewer'),
  }),
  output: changeRequestOutput,
  async run(ctx, args) {
    const changeRequests = changeRequestsOf(ctx);
    const number = typeof args.number === 'number' ? args.number : (await changeRequests.draftOf(ctx.actor))?.number;
    if (number === undefined) {
      throw new InvalidInputError(
        'you have no draft change request through this client; name one by its number (specbase_list_change_requests)',
      );
    }
    const submitted = await changeRequests.submit(ctx.actor, number, String(args.summary));
    return {
      structured: changeRequestFields(submitted),
      text: `Submitted change request ${changeRequestLine(submitted)}. A person reviews and merges it there.`,
    };
  },
};
