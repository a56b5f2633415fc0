import { inputRequired, inputResponse, Server, type AuthInfo, type ServerContext } from '@modelcontextprotocol/server';
import { rendersApps } from './apps/uris.js';
import type { Connection } from './connection.js';
import {
  CONFIRM_SCHEMA,
  confirmedBy,
  InputRequired,
  type McpHandler,
  type RequestContext,
  type ToolScope,
} from './handler-types.js';
import type { Confirm } from './types.js';
import { CACHE_HINTS, INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './server-info.js';

/**
 * The 2026-07-28 era asks between two requests: the first call ends `input_required` with the
 * question, and the client calls again with the user's answer under the question's key. A
 * question whose key the answer does not carry (more went under a delete meanwhile) is asked anew.
 */
const modernConfirm =
  (ctx: ServerContext): Confirm =>
  async ({ key, message }) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, key);
    if (answer.kind === 'elicit') return confirmedBy(answer);
    const question = inputRequired.elicit({ message, requestedSchema: CONFIRM_SCHEMA });
    throw new InputRequired(
      inputRequired({ inputRequests: { [key]: question } }) as unknown as Record<string, unknown>,
    );
  };

type ModernHandler = (
  request: { params?: Record<string, unknown> },
  ctx: ServerContext,
) => Promise<Record<string, unknown>>;

/**
 * The server for one 2026-07-28 request (`@modelcontextprotocol/server`): the v2 handler builds
 * one per request, so all it does is register the prebuilt handler table, the same one the
 * 2025-era sessions serve. `requestOf` reads who the request is for from what the transport
 * resolved before MCP was spoken.
 */
export function createModernToolServer(
  handlers: readonly McpHandler[],
  requestOf: (authInfo: AuthInfo | undefined) => { readonly scope: ToolScope; readonly connection: Connection },
  track: RequestContext['track'],
): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: INSTRUCTIONS,
    cacheHints: CACHE_HINTS,
  });
  const register = server.setRequestHandler.bind(server) as unknown as (method: string, handler: ModernHandler) => void;
  for (const handler of handlers) {
    if (handler.legacyOnly) continue;
    register(handler.method, (request, ctx) =>
      handler.handle(request.params, {
        ...requestOf(ctx.http?.authInfo),
        client: server.getClientVersion()?.name,
        apps: rendersApps(server.getClientCapabilities()),
        ...(server.getClientCapabilities()?.elicitation ? { confirm: modernConfirm(ctx) } : {}),
        track,
      }),
    );
  }
  return server;
}
