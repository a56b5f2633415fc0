import { z } from 'zod';
import { artifactTypesParam, limitParam, searchOutput } from './schemas.js';
import { searchText } from './text.js';
import type { ToolDef } from './types.js';

const input = z.object({
  query: z.string().min(1).describe('Words to match against titles and content'),
  artifactTypes: artifactTypesParam.optional(),
  limit: limitParam,
});

export const searchTool: ToolDef<typeof input, typeof searchOutput> = {
  name: 'specbase_search',
  title: 'Search',
  kind: 'search',
  description:
    'Search the organization\'s product knowledge by words in titles and content, to find an artifact whose id you do not know; ' +
    'then read it with the matching specbase_read_* tool. Results come best first, scored in (0,1], with a preview around the match.',
  input,
  output: searchOutput,
  async run({ specs, actor }, args) {
    const results = await specs.search(actor, args);
    return { structured: { results }, text: searchText(results) };
  },
};
