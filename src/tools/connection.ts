import { InvalidInputError } from '../errors.js';
import type { AppName } from './apps/uris.js';
import { TOOLS } from './table.js';
import { isReadOnly, OPT_IN_KINDS, type AnyToolDef, type ToolKind } from './types.js';

/** The app each model tool's result is shown in. */
const APP_OF: ReadonlyMap<string, AppName> = new Map(
  TOOLS.flatMap((tool) => (tool.app ? [[tool.name, tool.app] as const] : [])),
);

/** Why a connection may only read: what the client asked for, or what its credential allows. */
export type ReadOnlyReason = 'header' | 'url' | 'credential';

/** What one connection may use of the tool table: read-only, and/or a chosen subset. */
export interface Connection {
  readonly readOnly: ReadOnlyReason | false;
  /** The tools the client asked for (`X-Specbase-Tools`), or undefined for all of them. */
  readonly tools?: ReadonlySet<string>;
  /** How the client asked for them, quoted in a refusal. */
  readonly toolsAsked?: string;
  /** Opt-in kinds added to all the other tools (`+manage`, `all`, a /manage URL); a subset in `tools` names its own. */
  readonly optIn?: ReadonlySet<ToolKind>;
  /**
   * Where this connection's writes go instead of `main` (`X-Specbase-Change-Request`, or the
   * `change_request` query parameter): a change request's number, or `new` (the user's draft
   * through this client, opened by the first write). Its reads see that change request.
   */
  readonly changeRequest?: number | 'new';
}

export const FULL_CONNECTION: Connection = Object.freeze({ readOnly: false });

const KINDS: readonly ToolKind[] = ['search', 'read', 'list', 'create', 'edit', 'manage', 'review'];

/** What `X-Specbase-Tools` asks for: a subset of the tools, and/or opt-in kinds added to all of them. */
export interface ToolSelection {
  readonly tools?: ReadonlySet<string>;
  readonly optIn?: ReadonlySet<ToolKind>;
}

const HOW_TO_NAME =
  'tool kinds (search, read, list, create, edit, manage, review), tool names, `+manage` or `+review` (all the tools and those) or `all`, comma separated';

/**
 * The tools named by `X-Specbase-Tools`: kinds (`search,read,list`) and tool names, comma
 * separated, in any mix; `+manage` or `all` add the opt-in kinds to everything else. An unknown
 * word is refused, naming the words that exist, rather than silently leaving a connection with
 * fewer tools than its user meant.
 */
export function parseToolSelection(
  value: string,
  catalog: { readonly tools: readonly AnyToolDef[]; readonly byName: ReadonlyMap<string, AnyToolDef> },
): ToolSelection {
  const words = value
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 0) throw new InvalidInputError(`X-Specbase-Tools is empty; name ${HOW_TO_NAME}`);
  const chosen = new Set<string>();
  const optIn = new Set<ToolKind>();
  let subset = false;
  const kindOf = (word: string) => KINDS.find((kind) => kind === word);
  for (const word of words) {
    const added = word === 'all' ? OPT_IN_KINDS : word.startsWith('+') ? [kindOf(word.slice(1))] : [];
    if (added.length > 0 && added.every((kind) => kind !== undefined && OPT_IN_KINDS.includes(kind))) {
      for (const kind of added as ToolKind[]) {
        optIn.add(kind);
        for (const tool of catalog.tools) if (tool.kind === kind) chosen.add(tool.name);
      }
      continue;
    }
    subset = true;
    const kind = kindOf(word);
    if (kind) {
      for (const tool of catalog.tools) if (tool.kind === kind) chosen.add(tool.name);
    } else if (catalog.byName.has(word)) {
      chosen.add(word);
    } else {
      throw new InvalidInputError(
        `X-Specbase-Tools names ${JSON.stringify(word.slice(0, 60))}, which is neither a tool kind (${KINDS.join(', ')}) nor a tool name; name ${HOW_TO_NAME}`,
      );
    }
  }
  return subset ? { tools: chosen } : { optIn };
}

/**
 * The narrower of two connections: a session opened read-only stays so whatever a later request
 * says. Opt-in kinds are the session's opening's (`a`): the messages of a legacy SSE session are
 * posted to a URL without the /manage form, and must not lose what the session was opened with.
 */
export function narrowest(a: Connection, b: Connection): Connection {
  const tools = a.tools && b.tools ? new Set([...a.tools].filter((name) => b.tools!.has(name))) : (a.tools ?? b.tools);
  const toolsAsked = a.tools ? a.toolsAsked : b.toolsAsked;
  return {
    readOnly: a.readOnly || b.readOnly,
    ...(tools ? { tools } : {}),
    ...(toolsAsked !== undefined ? { toolsAsked } : {}),
    ...(a.optIn ? { optIn: a.optIn } : {}),
    ...(a.changeRequest !== undefined ? { changeRequest: a.changeRequest } : {}),
  };
}

const READ_ONLY_BECAUSE: Record<ReadOnlyReason, string> = {
  header: 'it was opened with X-Specbase-Readonly: true',
  url: 'it was opened on a /readonly URL',
  credential: 'its token or authorization was created read-only',
};

/** Undefined when the connection may call `tool`; otherwise the sentence that says why not and what to do. */
export function refusalOf(connection: Connection, tool: AnyToolDef): string | undefined {
  if (connection.readOnly && !isReadOnly(tool.kind)) {
    const what =
      tool.kind === 'manage' || tool.kind === 'review' ? `is a ${tool.kind} tool` : 'changes the specification';
    return (
      `${tool.name} ${what}, and this connection is read-only: ${READ_ONLY_BECAUSE[connection.readOnly]}; ` +
      'tools/list names what it can do'
    );
  }
  if (OPT_IN_KINDS.includes(tool.kind) && !connection.tools && !connection.optIn?.has(tool.kind)) {
    return (
      `${tool.name} is a ${tool.kind} tool, which a connection gets only by asking: send X-Specbase-Tools: +${tool.kind}, ` +
      (tool.kind === 'manage'
        ? 'connect to the /manage/mcp URL, or tick "Let the assistant delete, move, restore and revert" on the Connect page'
        : 'or work on a change request (X-Specbase-Change-Request: new, or a number)')
    );
  }
  if (connection.tools && !selects(connection.tools, tool)) {
    return `${tool.name} is not among the tools this connection asked for (X-Specbase-Tools: ${connection.toolsAsked ?? ''}); tools/list names what it can do`;
  }
  return undefined;
}

/** An app-only tool comes with the chosen tools whose results its apps show. */
function selects(chosen: ReadonlySet<string>, tool: AnyToolDef): boolean {
  if (!tool.appOnly) return chosen.has(tool.name);
  const serves = tool.appOnly.serves;
  return [...chosen].some((name) => {
    const app = APP_OF.get(name);
    return app !== undefined && serves.includes(app);
  });
}

/** Whether a connection offers the tool at all (tools/list). */
export const offers = (connection: Connection, tool: AnyToolDef): boolean => refusalOf(connection, tool) === undefined;
