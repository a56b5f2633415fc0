/**
 * The cold-start baseline, in its own process like the server it is compared with: a raw
 * FlexSearch build (title and body, our encoder, nothing else; see raw-flex.ts) of the same
 * documents a seeded organization holds. The documents are made before the clock starts.
 */
import { rawFlexIndex } from './raw-flex.js';
import { organizationArtifacts } from '../../test/support/org-shape.js';
import { exitWithParent } from './child-ipc.js';

process.on('message', (request: { kind: 'build'; total: number; workspaceId: string }) => {
  const docs = organizationArtifacts(request.total, request.workspaceId);
  const started = performance.now();
  const index = rawFlexIndex();
  docs.forEach((doc, slot) => index.add({ id: slot, title: doc.title, body: doc.body }));
  process.send!({ kind: 'answer', value: { ms: performance.now() - started } });
});
exitWithParent();
process.send!({ kind: 'ready' });
