/**
 * The cold-start baseline, in its own process like the server it is compared with: a raw
 * FlexSearch build (our Document configuration and encoder, nothing else) of the same
 * documents a seeded organization holds. The documents are made before the clock starts.
 */
import { createTextEncoder } from '../../src/search/encoder.js';
import { createFlexIndex } from '../../src/search/flex-index.js';
import { organizationArtifacts } from './org-shape.js';
import { exitWithParent } from './child-ipc.js';

process.on('message', (request: { kind: 'build'; total: number; workspaceId: string }) => {
  const docs = organizationArtifacts(request.total, request.workspaceId);
  const started = performance.now();
  const index = createFlexIndex(createTextEncoder());
  docs.forEach((doc, slot) => index.add({ id: slot, title: doc.title, body: doc.body }));
  process.send!({ kind: 'answer', value: { ms: performance.now() - started } });
});
exitWithParent();
process.send!({ kind: 'ready' });
