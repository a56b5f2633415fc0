import { buffersOf, packText, unpackText } from '../threads/packed-text.js';
import { ThreadClient } from '../threads/thread-client.js';
import { applyPatch } from './apply-patch.js';
import { countLineChanges } from './count-line-changes.js';
import { lineOrigins } from './line-origins.js';
import { refusalError, type DiffReply, type DiffRequest } from './diff-work.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * Texts this short are diffed and patched where they are: a few milliseconds at most, less than
 * the trip to the thread and back (a patch's hunk search is bounded, see line-index.ts). A
 * complete rewrite of a 1 MiB document takes 30-60 ms to diff and 15-35 ms to count on a 2-core
 * machine, and splitting one of 500,000 short lines into lines 100 ms: with the rest of a
 * request that held the event loop past 100 ms.
 */
const INLINE_CHARS = 64 * 1024;

const diffThread = new ThreadClient<DiffRequest, DiffReply>({
  callerUrl: import.meta.url,
  worker: 'diff-thread.worker',
  name: 'the diff thread',
});

const isShort = (before: string, after: string): boolean => before.length + after.length < INLINE_CHARS;

async function answered(request: DiffRequest): Promise<DiffReply> {
  const reply = await diffThread.send(request, buffersOf(request.before, request.after));
  if (!reply.ok) throw new Error(`the diff thread failed: ${reply.message}`);
  return reply;
}

/** unifiedDiff, off the event loop when the texts are large. */
export async function unifiedDiffOffLoop(before: string, after: string, label: string): Promise<string> {
  if (isShort(before, after)) return unifiedDiff(before, after, label);
  const reply = await answered({ op: 'unified', before: packText(before), after: packText(after), label });
  if (!('diff' in reply)) throw new Error('the diff thread answered a diff request with counts');
  return unpackText(reply.diff);
}

/** countLineChanges, off the event loop when the texts are large. */
export async function countLineChangesOffLoop(
  before: string,
  after: string,
  stripTrailingCr = true,
): Promise<{ added: number; removed: number }> {
  if (isShort(before, after)) return countLineChanges(before, after, stripTrailingCr);
  const reply = await answered({ op: 'count', before: packText(before), after: packText(after), stripTrailingCr });
  if (!('added' in reply)) throw new Error('the diff thread answered a count request with a diff');
  return { added: reply.added, removed: reply.removed };
}

/** applyPatch's new text, worked out off the event loop when document and patch are large. Refusals keep their types. */
export async function applyPatchOffLoop(document: string, patch: string): Promise<string> {
  if (isShort(document, patch)) return applyPatch(document, patch).text;
  const reply = await answered({ op: 'apply', before: packText(document), after: packText(patch) });
  if ('refused' in reply) throw refusalError(reply.refused);
  if (!('text' in reply)) throw new Error('the diff thread answered a patch with something else');
  return unpackText(reply.text);
}

/** lineOrigins, worked out off the event loop when the texts are large. */
export async function lineOriginsOffLoop(before: string, after: string): Promise<Int32Array | undefined> {
  if (isShort(before, after)) return lineOrigins(before, after);
  const reply = await answered({ op: 'origins', before: packText(before), after: packText(after) });
  if (!('origins' in reply)) throw new Error('the diff thread answered line origins with something else');
  return reply.origins ?? undefined;
}
