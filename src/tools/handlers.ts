import { InvalidInputError, SpecbaseError, ToolNotOfferedError } from '../errors.js';
import { refusalOf } from './connection.js';
import { toolErrorResult } from './error-result.js';
import {
  appsReach,
  InputRequired,
  protocolError,
  type McpHandler,
  type RequestContext,
  type ToolServerDeps,
} from './handler-types.js';
import { completePrompt, promptHandlers } from './prompts.js';
import { completeResource, resourceHandlers } from './resources.js';
import { artifactUri, RESOURCE_MIME_TYPE } from './resource-uri.js';
import type { ChangeRequest } from '../control/types.js';
import type { AnyToolDef } from './types.js';

export type { McpHandler, McpMethod, RequestContext, ToolScope, ToolServerDeps } from './handler-types.js';

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

/** The artifact a failed call was about, for the audit log. */
function requestedId(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const entry = Object.entries(raw).find(([key, value]) => key.endsWith('Id') && typeof value === 'string');
  return entry ? String(entry[1]).slice(0, 100) : null;
}

/** What a write result adds when the write went to a change request instead of `main`. */
function proposalNote(deps: ToolServerDeps, orgId: string, changeRequest: ChangeRequest): string {
  const url = deps.changeRequests?.changeRequests.urlOf(orgId, changeRequest.number) ?? '';
  return (
    `Proposed in change request #${changeRequest.number} "${changeRequest.title}" (branch cr/${changeRequest.number}): ` +
    `not on main until a person merges it. Review: ${url}`
  );
}

/**
 * The MCP surface as a table of era-neutral handlers, built once per process. This is the one
 * place that runs tools: argument parsing, actor, audit and error translation happen here.
 */
export function buildHandlers(deps: ToolServerDeps): readonly McpHandler[] {
  const { catalog, specs, audit, log, render, changeRequests } = deps;
  const runTool = async (name: string, rawArgs: unknown, request: RequestContext): Promise<Record<string, unknown>> => {
    const tool = catalog.byName.get(name);
    if (!tool)
      throw protocolError(`unknown tool ${JSON.stringify(name.slice(0, 100))}; tools/list names this server's tools`);
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
      if (tool.appOnly && !appsReach(deps, request)) {
        throw new ToolNotOfferedError(
          `${tool.name} is called by Specbase's MCP Apps, and this client did not declare that it renders them; tools/list names what it can do`,
        );
      }
      const refusal = refusalOf(request.connection, tool);
      if (refusal) throw new ToolNotOfferedError(refusal);
      const args = parseArgs(tool, rawArgs);
      const actor = { principal: await scope.principal(), ...(client ? { client } : {}) };
      let proposedIn: ChangeRequest | undefined;
      const outcome = await tool.run(
        {
          specs: changeRequests
            ? changeRequests.proposals.for(request.connection.changeRequest, (cr) => (proposedIn = cr))
            : specs,
          actor,
          ...(render ? { render } : {}),
          ...(request.confirm ? { confirm: request.confirm } : {}),
          ...(changeRequests ? { changeRequests: changeRequests.changeRequests } : {}),
        },
        args,
      );
      const structuredContent = tool.output.parse(outcome.structured) as Record<string, unknown>;
      // Not awaited: the row is written with others shortly after (see control/audit-batch.ts).
      void record('ok', outcome.artifactId ?? null, outcome.commit ?? null, null);
      const links = (outcome.links ?? []).map((link) => ({
        type: 'resource_link',
        uri: artifactUri(scope.orgId, link.id),
        name: link.title,
        mimeType: RESOURCE_MIME_TYPE,
      }));
      const text = proposedIn ? `${outcome.text}\n\n${proposalNote(deps, scope.orgId, proposedIn)}` : outcome.text;
      return { content: [{ type: 'text', text }, ...links], structuredContent };
    } catch (error) {
      // Not an outcome: the call is asked again with the user's answer, and audited then.
      if (error instanceof InputRequired) return error.result;
      const result = toolErrorResult(error, tool.name, log);
      const first = result.content[0];
      // The error class first, as the web application records its refusals (web/audit-trail.ts).
      const errorClass = error instanceof SpecbaseError ? error.code : 'internal_error';
      void record('error', requestedId(rawArgs), null, `${errorClass}: ${first?.type === 'text' ? first.text : ''}`);
      return result as Record<string, unknown>;
    }
  };

  const callTool = async (params: Record<string, unknown> | undefined, request: RequestContext) => {
    const { pollAfterMs } = deps;
    const poll =
      request.closeStream && pollAfterMs !== undefined ? setTimeout(request.closeStream, pollAfterMs) : undefined;
    try {
      return await runTool(String(params?.name ?? ''), params?.arguments, request);
    } finally {
      clearTimeout(poll);
    }
  };

  return [
    ...resourceHandlers(deps),
    ...promptHandlers(deps),
    {
      method: 'completion/complete',
      async handle(params, request) {
        const ref = (params?.ref ?? {}) as { type?: unknown; uri?: unknown; name?: unknown };
        const argument = (params?.argument ?? {}) as { name?: unknown; value?: unknown };
        const completion =
          (await completeResource(deps, ref, argument, request)) ??
          (await completePrompt(deps, ref, argument, request));
        return { completion: completion ?? { values: [], total: 0, hasMore: false } };
      },
    },
    {
      method: 'tools/list',
      handle: async (_params, request) => ({
        tools: [...catalog.listedFor(request.connection, appsReach(deps, request))],
      }),
    },
    { method: 'tools/call', handle: (params, request) => request.track(() => callTool(params, request)) },
  ];
}
