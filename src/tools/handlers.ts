import { InvalidInputError, ToolNotOfferedError } from '../errors.js';
import type { Principal } from '../access/principal.js';
import type { ControlPlane } from '../control/types.js';
import type { SpecService } from '../domain/types.js';
import type { ToolCatalog } from './catalog.js';
import { refusalOf, type Connection } from './connection.js';
import { toolErrorResult, type ToolLog } from './error-result.js';
import type { AnyToolDef } from './types.js';

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
  /** Runs a tool call, so that the transport layer can wait for calls under way (shutdown, idle sessions). */
  readonly track: <T>(work: () => Promise<T>) => Promise<T>;
  /** Ends the response stream early so that a resumable client polls for the answer (2025 era only). */
  readonly closeStream?: (() => void) | undefined;
}

/** The JSON-RPC methods this server answers besides the protocol's own. */
export type McpMethod = 'tools/list' | 'tools/call';

/**
 * One method of the MCP surface, independent of the SDK line that serves it: each era's server
 * registers every entry of the same table in one loop (server.ts, modern-server.ts).
 */
export interface McpHandler {
  readonly method: McpMethod;
  handle(params: Record<string, unknown> | undefined, request: RequestContext): Promise<Record<string, unknown>>;
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
 * A JSON-RPC error whose message is the bare sentence: the SDKs' own error classes prefix
 * "MCP error -32602: " to their message, which is sent as is and the client prefixes again.
 */
export function protocolError(message: string): Error {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}

/** The artifact a failed call was about, for the audit log. */
function requestedId(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const entry = Object.entries(raw).find(([key, value]) => key.endsWith('Id') && typeof value === 'string');
  return entry ? String(entry[1]).slice(0, 100) : null;
}

/**
 * The MCP surface as a table of era-neutral handlers, built once per process. This is the one
 * place that runs tools: argument parsing, actor, audit and error translation happen here.
 */
export function buildHandlers(deps: ToolServerDeps): readonly McpHandler[] {
  const { catalog, specs, audit, log } = deps;
  const runTool = async (name: string, rawArgs: unknown, request: RequestContext): Promise<Record<string, unknown>> => {
    const tool = catalog.byName.get(name);
    if (!tool) throw protocolError(`unknown tool ${JSON.stringify(name.slice(0, 100))}; tools/list names this server's tools`);
    const { scope, client } = request;
    const started = performance.now();
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
      const refusal = refusalOf(request.connection, tool);
      if (refusal) throw new ToolNotOfferedError(refusal);
      const args = parseArgs(tool, rawArgs);
      const actor = { principal: await scope.principal(), ...(client ? { client } : {}) };
      const outcome = await tool.run({ specs, actor }, args);
      const structuredContent = tool.output.parse(outcome.structured) as Record<string, unknown>;
      // Not awaited: the row is written with others shortly after (see control/audit-batch.ts).
      void record('ok', outcome.artifactId ?? null, outcome.commit ?? null, null);
      return { content: [{ type: 'text', text: outcome.text }], structuredContent };
    } catch (error) {
      const result = toolErrorResult(error, tool.name, log);
      const first = result.content[0];
      void record('error', requestedId(rawArgs), null, first?.type === 'text' ? first.text : null);
      return result as Record<string, unknown>;
    }
  };

  const callTool = async (params: Record<string, unknown> | undefined, request: RequestContext) => {
    const { pollAfterMs } = deps;
    const poll = request.closeStream && pollAfterMs !== undefined ? setTimeout(request.closeStream, pollAfterMs) : undefined;
    try {
      return await runTool(String(params?.name ?? ''), params?.arguments, request);
    } finally {
      clearTimeout(poll);
    }
  };

  return [
    { method: 'tools/list', handle: async (_params, request) => ({ tools: [...catalog.listedFor(request.connection)] }) },
    { method: 'tools/call', handle: (params, request) => request.track(() => callTool(params, request)) },
  ];
}
