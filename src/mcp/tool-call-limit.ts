import type { RequestHandler } from 'express';
import { LimitExceededError } from '../errors.js';
import { retryAfterSeconds, TokenBuckets } from '../limits/index.js';
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
 * HTTP 429 with Retry-After, its body a JSON-RPC error an MCP client can show as it is.
 */
export const limitStreamableToolCalls =
  (limit: ToolCallLimit, onRefused: (scope: RequestScope, error: LimitExceededError) => void): RequestHandler =>
  (req, res, next) => {
    const ids = toolCallIds(req.body);
    if (ids.length === 0) return next();
    const scope = res.locals.scope as RequestScope;
    const refusal = limit.take(scope, ids.length);
    if (!refusal) return next();
    onRefused(scope, refusal);
    res
      .status(429)
      .set('Retry-After', String(refusal.retryAfterSeconds))
      .json({
        jsonrpc: '2.0',
        id: ids.length === 1 && !Array.isArray(req.body) ? ids[0] : null,
        error: { code: -32000, message: refusal.message, data: { retryAfterSeconds: refusal.retryAfterSeconds } },
      });
  };
