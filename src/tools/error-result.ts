import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError, PermissionDeniedError, SpecbaseError } from '../errors.js';

export type ToolLog = (level: 'warn' | 'error', message: string, data?: Record<string, unknown>) => void;

/** The one sentence the model gets for an error. */
export function errorSentence(error: unknown): string {
  if (error instanceof NotFoundError) return 'artifact not found';
  if (error instanceof PermissionDeniedError) return 'permission denied';
  if (error instanceof SpecbaseError) return error.message;
  return 'internal error: the operation failed on the server; try again later';
}

/** Every failure of a tool call becomes an `isError` result here and nowhere else. */
export function toolErrorResult(error: unknown, tool: string, log: ToolLog): CallToolResult {
  if (!(error instanceof SpecbaseError)) {
    log('error', 'tool call failed unexpectedly', {
      tool,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
  return { isError: true, content: [{ type: 'text', text: errorSentence(error) }] };
}
