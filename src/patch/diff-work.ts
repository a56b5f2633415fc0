import { packText, unpackText } from '../threads/packed-text.js';
import { countLineChanges } from './count-line-changes.js';
import { unifiedDiff } from './unified-diff.js';

/** The work the diff thread does (see diff-thread.ts), its texts packed to be moved, not copied. */
export type DiffRequest =
  | { readonly op: 'unified'; readonly before: Uint8Array; readonly after: Uint8Array; readonly label: string }
  | { readonly op: 'count'; readonly before: Uint8Array; readonly after: Uint8Array; readonly stripTrailingCr: boolean };

export type DiffReply =
  | { readonly ok: true; readonly diff: Uint8Array }
  | { readonly ok: true; readonly added: number; readonly removed: number }
  | { readonly ok: false; readonly message: string };

/** One answer, by the very functions the event loop runs on short texts. */
export function answerDiff(request: DiffRequest): DiffReply {
  const before = unpackText(request.before);
  const after = unpackText(request.after);
  return request.op === 'unified'
    ? { ok: true, diff: packText(unifiedDiff(before, after, request.label)) }
    : { ok: true, ...countLineChanges(before, after, request.stripTrailingCr) };
}
