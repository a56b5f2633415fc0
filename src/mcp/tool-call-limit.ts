import type { ServerResponse } from 'node:http';
import { LimitExceededError } from '../errors.js';
import { retryAfterSeconds, TokenBuckets } from '../limits/index.js';
import { sendJsonRpcError } from './http-error.js';
import type { RequestScope } from './types.js';

type JsonRpcId = string | number;

/** The ids of the `tools/call` requests in a POST body: one JSON-RPC message or a batch. */
export function toolCallIds(body: unknown): JsonRpcId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const { method, id } = (message ?? {}) as { method?: unknown; id?: unknown };
    return method === 'tools/call' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/**
 * Tool calls per (user, organization): a token bucket of `perMinute` calls, refilled at
 * `perMinute` a minute, so a burst of that size is fine and a runaway loop is slowed down.
 */
export class ToolCallLimit {
  readonly #buckets: TokenBuckets;

  constructor(private readonly perMinute: number) {
    this.#buckets = new TokenBuckets({ capacity: perMinute, windowMs: 60_000 });
  }

  /** Takes one token per call; the refusal (nothing taken) when the budget does not cover them all. */
  take(scope: RequestScope, calls: number): LimitExceededError | undefined {
    const taken = this.#buckets.take(`${scope.user.userId}:${scope.orgId}`, calls);
    if (taken.ok) return undefined;
    const seconds = retryAfterSeconds(taken.retryAfterMs);
    return new LimitExceededError(
      `too many tool calls: at most ${this.perMinute} a minute for one user in one organization; retry in ${seconds} second${seconds === 1 ? '' : 's'}`,
      seconds,
    );
  }
}

/**
 * Streamable HTTP: every tool call is an HTTP request of its own, so an exceeded limit is
 * HTTP 429 with Retry-After, its body a JSON-RPC error an MCP client can show as it is. The
 * refusal, once answered; undefined when the calls may go on.
 */
export function refuseOverLimit(
  limit: ToolCallLimit,
  scope: RequestScope,
  body: unknown,
  res: ServerResponse,
): LimitExceededError | undefined {
  const ids = toolCallIds(body);
  if (ids.length === 0) return undefined;
  const refusal = limit.take(scope, ids.length);
  if (!refusal) return undefined;
  sendJsonRpcError(
    res,
    429,
    { message: refusal.message, data: { retryAfterSeconds: refusal.retryAfterSeconds } },
    {
      id: ids.length === 1 && !Array.isArray(body) ? ids[0]! : null,
      headers: { 'Retry-After': String(refusal.retryAfterSeconds) },
    },
  );
  return refusal;
}
