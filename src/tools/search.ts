import { z } from 'zod';
import { artifactTypesParam, limitParam, searchOutput } from './schemas.js';
import { searchText } from './text.js';
import type { ToolDef } from './types.js';

const input = z.object({
  query: z.string().min(1).describe('Words or a question (its 64 rarest count)'),
  artifactTypes: artifactTypesParam.optional(),
  limit: limitParam,
});

export const searchTool: ToolDef<typeof input, typeof searchOutput> = {
  name: 'specbase_search',
  title: 'Search',
  kind: 'search',
  description:
    'Find artifacts by words in titles and content when you lack an id. ' +
    'Best first, scored in (0,1], with a preview.',
  input,
  output: searchOutput,
  app: 'search',
  async run({ specs, actor }, args) {
    const answer = await specs.search(actor, args);
    return { structured: answer, text: searchText(answer), links: answer.results };
  },
};
