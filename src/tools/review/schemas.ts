import { z } from 'zod';
import type { ChangeRequestView } from '../../domain/index.js';

export const numberParam = z
  .number()
  .int()
  .min(1)
  .max(999_999_999)
  .describe("The change request's number (its branch is cr/{number})");

export const changeRequestOutput = z.looseObject({ number: z.number(), state: z.string(), url: z.string() });

/** One line naming a change request, as every review tool writes it. */
export const changeRequestLine = (cr: ChangeRequestView): string =>
  `#${cr.number} "${cr.title}" (${cr.state}${cr.submittedAt && cr.state === 'open' ? ', submitted' : ''}) by ${cr.author?.name ?? 'unknown'}, branch ${cr.branch}: ${cr.url}`;

/** What a model needs of a change request: all but nothing it could not use. */
export const changeRequestFields = (cr: ChangeRequestView) => ({
  number: cr.number,
  title: cr.title,
  description: cr.description,
  state: cr.state,
  author: cr.author?.name ?? null,
  branch: cr.branch,
  url: cr.url,
  submitted: cr.submittedAt !== null,
  updatedAt: cr.updatedAt,
});
