import { z } from 'zod';
import type { ArtifactRef } from '../../domain/types.js';
import { idParam } from '../schemas.js';

/** The manage tools act on an artifact of any type: one id parameter for all of them. */
export const anyArtifactIdParam = idParam('Artifact', 'specbase_search');

/** The call that undoes what a manage tool did, written out so that a model can make it as is. */
export const undoOutput = z.object({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) });

export type Undo = z.output<typeof undoOutput>;

/** `{id, type, title}` of each artifact a change affected, declared as the read tools' link lists are. */
export const affectedOutput = z.array(z.unknown());

/** "feature 3f2a… "Checkout"": how the text block names an artifact. */
export const refText = (ref: ArtifactRef): string => `${ref.type} ${ref.id} "${ref.title}"`;

/** The undo call as the model would write it. */
export const undoText = (undo: Undo): string => `Undo with ${undo.tool} ${JSON.stringify(undo.arguments)}.`;
