import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import type { SpecService } from '../domain/types.js';
import { InvalidInputError, SpecbaseError } from '../errors.js';
import type { ToolCatalog } from './catalog.js';
import { toolErrorResult, type ToolLog } from './error-result.js';
import type { AnyToolDef } from './types.js';

export const SERVER_INFO = Object.freeze({ name: 'specbase', title: 'Specbase', version: '0.1.0' });

const INSTRUCTIONS =
  'Specbase holds this organization\'s product knowledge as markdown documents: one Product with Capabilities > Features > Requirements > Acceptance Criteria, User Types, Core Entities, and free-form Pages in folders. ' +
  'Start with specbase_search or specbase_read_product; read with mode "full" before editing with a unified diff.';

export interface ToolServerDeps {
  readonly catalog: ToolCatalog;
  readonly specs: SpecService;
  readonly audit: Pick<ControlPlane['audit'], 'record'>;
  readonly log: ToolLog;
  /** Runs each tool call, so that the transport layer can wait for calls under way at shutdown. */
  readonly track: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * A call running longer closes its response stream (SSE polling): the client reconnects with
   * Last-Event-ID and gets the result from the session's event store. Only for clients that can
   * resume; the transport offers `closeSSEStream` to no others.
   */
  readonly pollAfterMs?: number;
}

/** The (user, organization) a session belongs to. */
export interface ToolSessionScope {
  readonly userId: string;
  readonly orgId: string;
  /**
   * Resolved on every call, from what the transport resolved for this HTTP request: roles can
   * change while a session lives.
   */
  principal(authInfo: AuthInfo | undefined): Promise<Principal>;
}

/**
 * A misnamed argument would otherwise be dropped silently and the call fail for the missing
 * one: name it, and the parameter it most likely stands for.
 */
function rejectUnknownArgs(tool: AnyToolDef, raw: unknown): void {
  if (!raw || typeof raw !== 'object') return;
  const known = Object.keys(tool.input.shape);
  const unknown = Object.keys(raw).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const missing = known.filter((key) => !(key in raw) && !tool.input.shape[key]!.safeParse(undefined).success);
  const expected = (missing.length > 0 ? missing : known).map((key) => `\`${key}\``).join(', ');
  const names = unknown.map((key) => `\`${key.slice(0, 60)}\``).join(', ');
  throw new InvalidInputError(
    `unknown argument${unknown.length > 1 ? 's' : ''} ${names}; ${tool.name} takes ${expected || 'no arguments'}`,
  );
}

function parseArgs(tool: AnyToolDef, raw: unknown): Record<string, unknown> {
  rejectUnknownArgs(tool, raw);
  const parsed = tool.input.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`);
  throw new InvalidInputError(`invalid arguments for ${tool.name}: ${problems.join('; ')}`);
}

/**
 * A JSON-RPC error whose message is the bare sentence: McpError prefixes "MCP error -32602: "
 * to its message, which the SDK sends as is and the client prefixes again.
 */
function unknownToolError(name: string): Error {
  const shown = JSON.stringify(name.slice(0, 100));
  return Object.assign(new Error(`unknown tool ${shown}; tools/list names this server's tools`), {
    code: ErrorCode.InvalidParams,
  });
}

/** The artifact a failed call was about, for the audit log. */
function requestedId(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const entry = Object.entries(raw).find(([key, value]) => key.endsWith('Id') && typeof value === 'string');
  return entry ? String(entry[1]).slice(0, 100) : null;
}

/**
 * One MCP server per session, all sharing the same precomputed tool list. This is the one
 * loop that runs tools: argument parsing, actor, audit and error translation happen here.
 */
export function createToolServer(deps: ToolServerDeps, scope: ToolSessionScope): Server {
  const { catalog, specs, audit, log, track } = deps;
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...catalog.listed] }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => track(() => callTool(request, extra)));

  const callTool = async (
    request: CallToolRequest,
    extra: { authInfo?: AuthInfo | undefined; closeSSEStream?: (() => void) | undefined },
  ): Promise<CallToolResult> => {
    const { pollAfterMs } = deps;
    const poll = extra.closeSSEStream && pollAfterMs !== undefined ? setTimeout(extra.closeSSEStream, pollAfterMs) : undefined;
    try {
      return await runTool(request, extra);
    } finally {
      clearTimeout(poll);
    }
  };

  const runTool = async (
    request: CallToolRequest,
    extra: { authInfo?: AuthInfo | undefined },
  ): Promise<CallToolResult> => {
    const tool = catalog.byName.get(request.params.name);
    if (!tool) throw unknownToolError(request.params.name);
    const started = performance.now();
    const client = server.getClientVersion()?.name;
    const record = (outcome: 'ok' | 'error', artifactId: string | null, commit: string | null, detail: string | null) =>
      audit
        .record({
          userId: scope.userId,
          orgId: scope.orgId,
          kind: 'tool_call',
          action: tool.name,
          artifactId,
          commit,
          client: client ?? null,
          durationMs: Math.round(performance.now() - started),
          outcome,
          detail,
        })
        .catch((error: unknown) => log('error', 'audit record failed', { tool: tool.name, error: String(error) }));

    try {
      const args = parseArgs(tool, request.params.arguments);
      const actor = { principal: await scope.principal(extra.authInfo), ...(client ? { client } : {}) };
      const outcome = await tool.run({ specs, actor }, args);
      const structuredContent = tool.output.parse(outcome.structured) as Record<string, unknown>;
      // Not awaited: the row is written with others shortly after (see control/audit-batch.ts).
      void record('ok', outcome.artifactId ?? null, outcome.commit ?? null, null);
      return { content: [{ type: 'text', text: outcome.text }], structuredContent };
    } catch (error) {
      const result = toolErrorResult(error, tool.name, log);
      const first = result.content[0];
      // The error class first, as the web application records its refusals (web/audit-trail.ts).
      const errorClass = error instanceof SpecbaseError ? error.code : 'internal_error';
      void record('error', requestedId(request.params.arguments), null, `${errorClass}: ${first?.type === 'text' ? first.text : ''}`);
      return result;
    }
  };

  return server;
}
