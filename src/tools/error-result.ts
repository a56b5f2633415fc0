import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { artifactType, isArtifactType } from '../artifacts/index.js';
import {
  ExplainedNotFoundError,
  NotFoundError,
  PermissionDeniedError,
  SpecbaseError,
  storageFailureOf,
  WrongTypeError,
} from '../errors.js';
import { withArticle } from './text.js';

export type ToolLog = (level: 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

/** "… is a capability, not a feature; use specbase_read_capability": the fix in one line. */
function wrongTypeSentence(error: WrongTypeError): string {
  if (!isArtifactType(error.actualType) || !isArtifactType(error.expectedType)) return 'artifact not found';
  const actual = artifactType(error.actualType);
  const expected = artifactType(error.expectedType);
  return (
    `${error.id} is ${withArticle(actual.name.toLowerCase())}, not ${withArticle(expected.name.toLowerCase())}; ` +
    `use specbase_read_${actual.singular}`
  );
}

/** The one sentence the model gets for an error. */
export function errorSentence(error: unknown): string {
  if (error instanceof WrongTypeError) return wrongTypeSentence(error);
  if (error instanceof ExplainedNotFoundError) return error.message;
  if (error instanceof NotFoundError) return 'artifact not found';
  if (error instanceof PermissionDeniedError) return 'permission denied';
  if (error instanceof SpecbaseError) return error.message;
  return storageFailureOf(error)?.message ?? 'internal error: the operation failed on the server; try again later';
}

/** Every failure of a tool call becomes an `isError` result here and nowhere else. */
export function toolErrorResult(error: unknown, tool: string, log: ToolLog): CallToolResult {
  const storage = error instanceof SpecbaseError ? undefined : storageFailureOf(error);
  if (storage)
    log('error', 'tool call failed: the server cannot write', {
      tool,
      reason: storage.data.reason,
      error: String(error),
    });
  else if (!(error instanceof SpecbaseError)) {
    log('error', 'tool call failed unexpectedly', {
      tool,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
  return { isError: true, content: [{ type: 'text', text: errorSentence(error) }] };
}
