import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import type { ChangeRequestServices } from '../domain/index.js';
import type { SpecService } from '../domain/types.js';
import type { ToolCatalog } from './catalog.js';
import type { Connection } from './connection.js';
import type { ToolLog } from './error-result.js';
import type { AppRendering, Confirm } from './types.js';

/** JSON-RPC "invalid params", the code both SDK lines send for an error that carries it. */
const INVALID_PARAMS = -32602;

export interface ToolServerDeps {
  readonly catalog: ToolCatalog;
  readonly specs: SpecService;
  readonly audit: Pick<ControlPlane['audit'], 'record'>;
  readonly log: ToolLog;
  /**
   * A call running longer closes its response stream (SSE polling): the client reconnects with
   * Last-Event-ID and gets the result from the session's event store. Only for clients that can
   * resume; the legacy transport offers `closeSSEStream` to no others.
   */
  readonly pollAfterMs?: number;
  /** How the MCP Apps show documents and diffs; without it no app is offered. */
  readonly render?: AppRendering;
  /** Change requests: the review tools, and connections whose writes are proposals. */
  readonly changeRequests?: ChangeRequestServices;
}

/** Who a request acts for, whichever protocol era carried it. */
export interface ToolScope {
  readonly userId: string;
  readonly orgId: string;
  /** Resolved on every call: roles can change while a session lives. */
  principal(): Promise<Principal>;
}

/** What one request brings besides its params: who it is for and what its transport offers. */
export interface RequestContext {
  readonly scope: ToolScope;
  /** The client's name (initialize on the 2025 era, the request's envelope on 2026-07-28), for audit and commits. */
  readonly client: string | undefined;
  /** What the connection may use: read-only, a subset of the tools. */
  readonly connection: Connection;
  /** The client renders MCP Apps (it declared the ext-apps extension). */
  readonly apps: boolean;
  /** Runs a tool call, so that the transport layer can wait for calls under way (shutdown, idle sessions). */
  readonly track: <T>(work: () => Promise<T>) => Promise<T>;
  /** The session's resource subscriptions (2025 era; 2026-07-28 subscribes with subscriptions/listen). */
  readonly subscriptions?: { add(uri: string): void; remove(uri: string): void };
  /** Ends the response stream early so that a resumable client polls for the answer (2025 era only). */
  readonly closeStream?: (() => void) | undefined;
  /** Asks the user through the client, when it declared elicitation (each era its own way). */
  readonly confirm?: Confirm;
}

/**
 * Thrown by a 2026-07-28 `confirm` that has no answer yet: the call ends with the
 * `input_required` result it carries, and the client calls again with the user's answer.
 */
export class InputRequired extends Error {
  constructor(readonly result: Record<string, unknown>) {
    super('input required');
  }
}

/** The form a confirmation asks for: one box to tick. */
export const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Yes, go ahead' } },
  required: ['confirm'],
};

/** Whether an elicitation answer is a yes: accepted, with the box ticked. */
export const confirmedBy = (answer: { action: string; content?: Record<string, unknown> | undefined }): boolean =>
  answer.action === 'accept' && answer.content?.confirm === true;

/** Whether the MCP Apps reach a request: its client renders them and this server serves them. */
export const appsReach = (deps: Pick<ToolServerDeps, 'render'>, request: RequestContext): boolean =>
  request.apps && deps.render !== undefined;

/** The JSON-RPC methods this server answers besides the protocol's own. */
export type McpMethod =
  | 'tools/list'
  | 'tools/call'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'completion/complete'
  | 'prompts/list'
  | 'prompts/get';

/**
 * One method of the MCP surface, independent of the SDK line that serves it: each era's server
 * registers every entry of the same table in one loop (server.ts, modern-server.ts).
 */
export interface McpHandler {
  readonly method: McpMethod;
  /** A method of the 2025 era only (the 2026-07-28 revision removed it): not registered on modern servers. */
  readonly legacyOnly?: true;
  handle(params: Record<string, unknown> | undefined, request: RequestContext): Promise<Record<string, unknown>>;
}

/**
 * A JSON-RPC error whose message is the bare sentence: the SDKs' own error classes prefix
 * "MCP error -32602: " to their message, which is sent as is and the client prefixes again.
 */
export function protocolError(message: string, code = INVALID_PARAMS, data?: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code }, data ? { data } : {});
}
