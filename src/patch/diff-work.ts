import { InvalidInputError, PatchError } from '../errors.js';
import { packText, unpackText } from '../threads/packed-text.js';
import { applyPatch } from './apply-patch.js';
import { countLineChanges } from './count-line-changes.js';
import { lineOrigins } from './line-origins.js';
import { unifiedDiff } from './unified-diff.js';

/**
 * The work the diff thread does (see diff-thread.ts), its texts packed to be moved, not copied.
 * `apply` puts a patch on a document (`before` the document, `after` the patch).
 */
export type DiffRequest =
  | { readonly op: 'unified'; readonly before: Uint8Array; readonly after: Uint8Array; readonly label: string }
  | { readonly op: 'count'; readonly before: Uint8Array; readonly after: Uint8Array; readonly stripTrailingCr: boolean }
  | { readonly op: 'apply'; readonly before: Uint8Array; readonly after: Uint8Array }
  | { readonly op: 'origins'; readonly before: Uint8Array; readonly after: Uint8Array };

/** A patch refused in the thread, to be thrown again as the same typed error on the caller's side. */
export type Refusal =
  | { readonly kind: 'patch'; readonly message: string; readonly details: PatchError['details'] }
  | { readonly kind: 'invalid'; readonly message: string; readonly data: Record<string, unknown> };

export type DiffReply =
  | { readonly ok: true; readonly diff: Uint8Array }
  | { readonly ok: true; readonly added: number; readonly removed: number }
  | { readonly ok: true; readonly text: Uint8Array }
  | { readonly ok: true; readonly refused: Refusal }
  | { readonly ok: true; readonly origins: Int32Array | null }
  | { readonly ok: false; readonly message: string };

/** One answer, by the very functions the event loop runs on short texts. */
export function answerDiff(request: DiffRequest): DiffReply {
  const before = unpackText(request.before);
  const after = unpackText(request.after);
  if (request.op === 'apply') return applied(before, after);
  if (request.op === 'origins') return { ok: true, origins: lineOrigins(before, after) ?? null };
  return request.op === 'unified'
    ? { ok: true, diff: packText(unifiedDiff(before, after, request.label)) }
    : { ok: true, ...countLineChanges(before, after, request.stripTrailingCr) };
}

function applied(document: string, patch: string): DiffReply {
  try {
    return { ok: true, text: packText(applyPatch(document, patch).text) };
  } catch (error) {
    if (error instanceof PatchError)
      return { ok: true, refused: { kind: 'patch', message: error.message, details: error.details } };
    if (error instanceof InvalidInputError)
      return { ok: true, refused: { kind: 'invalid', message: error.message, data: error.data } };
    throw error;
  }
}

/** The typed error a refusal stands for. */
export function refusalError(refusal: Refusal): PatchError | InvalidInputError {
  return refusal.kind === 'patch'
    ? new PatchError(refusal.message, refusal.details)
    : new InvalidInputError(refusal.message, refusal.data);
}
