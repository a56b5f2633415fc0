import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../access/principal.js';
import { rendersApps } from './apps/uris.js';
import type { Connection } from './connection.js';
import { CONFIRM_SCHEMA, confirmedBy, type McpHandler, type McpMethod, type RequestContext } from './handler-types.js';
import type { Confirm } from './types.js';
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './server-info.js';

/** The (user, organization) a 2025-era session belongs to. */
export interface ToolSessionScope {
  readonly userId: string;
  readonly orgId: string;
  /**
   * Resolved on every call, from what the transport resolved for this HTTP request: roles can
   * change while a session lives.
   */
  principal(authInfo: AuthInfo | undefined): Promise<Principal>;
  /** What this request's connection may use: the session's opening and the request's own, the narrower. */
  connection(authInfo: AuthInfo | undefined): Connection;
  /** The session's resource subscriptions (see RequestContext.subscriptions). */
  readonly subscriptions?: RequestContext['subscriptions'];
  /** Runs each tool call of the session (see RequestContext.track). */
  track<T>(work: () => Promise<T>): Promise<T>;
}

/** The 1.x SDK dispatches on request schemas: the one for each method of the table. */
const REQUEST_SCHEMAS = {
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
} as const satisfies Record<McpMethod, unknown>;

interface LegacyExtra {
  authInfo?: AuthInfo | undefined;
  closeSSEStream?: (() => void) | undefined;
  sendRequest: (
    request: { method: string; params: unknown },
    schema: typeof ElicitResultSchema,
    options: { timeout: number },
  ) => Promise<unknown>;
}

/** A person reads the question and answers: far longer than the protocol's 60 s default (the v2 SDK's own default). */
const CONFIRM_TIMEOUT_MS = 10 * 60_000;

type LegacyHandler = (
  request: { params?: Record<string, unknown> },
  extra: LegacyExtra,
) => Promise<Record<string, unknown>>;

/**
 * The 2025 era asks in the middle of the call: an `elicitation/create` request on the call's own
 * stream (so that it reaches the client on the same POST), answered before the tool goes on.
 */
const legacyConfirm =
  (extra: LegacyExtra): Confirm =>
  async ({ message }) => {
    const answer = (await extra.sendRequest(
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: CONFIRM_SCHEMA } },
      ElicitResultSchema,
      { timeout: CONFIRM_TIMEOUT_MS },
    )) as { action: string; content?: Record<string, unknown> };
    return confirmedBy(answer);
  };

/**
 * One 2025-era MCP server per session (`@modelcontextprotocol/sdk`), serving the handler table
 * that the 2026-07-28 servers serve too.
 */
export function createToolServer(handlers: readonly McpHandler[], scope: ToolSessionScope): Server {
  const server = new Server(SERVER_INFO, { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS });
  const register = server.setRequestHandler.bind(server) as unknown as (
    schema: unknown,
    handler: LegacyHandler,
  ) => void;
  for (const handler of handlers) {
    register(REQUEST_SCHEMAS[handler.method], (request, extra) =>
      handler.handle(request.params, {
        scope: { userId: scope.userId, orgId: scope.orgId, principal: () => scope.principal(extra.authInfo) },
        client: server.getClientVersion()?.name,
        connection: scope.connection(extra.authInfo),
        apps: rendersApps(server.getClientCapabilities()),
        track: (work) => scope.track(work),
        closeStream: extra.closeSSEStream,
        ...(server.getClientCapabilities()?.elicitation ? { confirm: legacyConfirm(extra) } : {}),
        ...(scope.subscriptions ? { subscriptions: scope.subscriptions } : {}),
      }),
    );
  }
  return server;
}
