import { z } from 'zod';
import type { ArtifactTypeDef } from '../artifacts/index.js';
import type { ReadMode } from '../domain/types.js';
import { artifactIdParam, modeParam, readWithLinksOutputFor } from './schemas.js';
import { artifactText, withArticle } from './text.js';
import type { AnyToolDef } from './types.js';

function productReadTool(def: ArtifactTypeDef): AnyToolDef {
  return {
    name: `specbase_read_${def.singular}`,
    title: `Read ${def.name}`,
    kind: 'read',
    description: `Read the ${def.name}, ${def.summary}. ` + 'Start here: its id is the productId.',
    input: z.object({ mode: modeParam }),
    output: readWithLinksOutputFor(def.type),
    app: 'artifact',
    async run({ specs, actor }, args) {
      const view = await specs.readProduct(actor, args.mode as ReadMode);
      return { structured: view, text: artifactText(view), artifactId: view.id };
    },
  };
}

export function readTool(def: ArtifactTypeDef): AnyToolDef {
  if (def.parent === null) return productReadTool(def);
  return {
    name: `specbase_read_${def.singular}`,
    title: `Read ${def.name}`,
    kind: 'read',
    description: `Read ${withArticle(def.name)}: ${def.summary}.`,
    input: z.object({ [def.idParam]: artifactIdParam(def), mode: modeParam }),
    output: readWithLinksOutputFor(def.type),
    app: 'artifact',
    async run({ specs, actor }, args) {
      const id = String(args[def.idParam]);
      const view = await specs.read(actor, def.type, id, args.mode as ReadMode);
      return { structured: view, text: artifactText(view), artifactId: id };
    },
  };
}
