/**
 * Child process for the crash test: edits the given artifacts forever, a few at a time, and
 * prints `ack <commit> <artifactId>` once each edit has returned (that is, once `main` moved).
 * Usage: node --import tsx edit-stream.ts <dataDir> <orgId> <artifactId>...
 */
import { GitStore } from '../../../src/store/index.js';

const [dataDir, orgId, ...ids] = process.argv.slice(2);
if (!dataDir || !orgId || ids.length === 0) throw new Error('usage: edit-stream.ts <dataDir> <orgId> <artifactId>...');
const store = new GitStore({ dataDir });
const ctx = { author: { name: 'Stream Writer', email: 'stream@example.com' }, client: 'crash-test' };

async function editForever(id: string): Promise<never> {
  for (let n = 0; ; n++) {
    const current = await store.read(orgId!, id);
    const result = await store.update(
      orgId!,
      id,
      { body: `${current.body}edit ${process.pid}-${n}\n`, verb: 'edit' },
      ctx,
    );
    process.stdout.write(`ack ${result.commit} ${id}\n`);
  }
}

await Promise.all(ids.map(editForever));
