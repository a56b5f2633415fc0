import { InvalidInputError } from '../errors.js';
import type { AppName } from './apps/uris.js';
import { TOOLS } from './table.js';
import { isReadOnly, type AnyToolDef, type ToolKind } from './types.js';

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
}

export const FULL_CONNECTION: Connection = Object.freeze({ readOnly: false });

const KINDS: readonly ToolKind[] = ['search', 'read', 'list', 'create', 'edit'];

/**
 * The tools named by `X-Specbase-Tools`: kinds (`search,read,list`) and tool names, comma
 * separated, in any mix. An unknown word is refused, naming the words that exist, rather than
 * silently leaving a connection with fewer tools than its user meant.
 */
export function parseToolSelection(
  value: string,
  catalog: { readonly tools: readonly AnyToolDef[]; readonly byName: ReadonlyMap<string, AnyToolDef> },
): ReadonlySet<string> {
  const words = value
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 0)
    throw new InvalidInputError(
      'X-Specbase-Tools is empty; name tool kinds (search, read, list, create, edit) or tool names, comma separated',
    );
  const chosen = new Set<string>();
  for (const word of words) {
    if ((KINDS as readonly string[]).includes(word)) {
      for (const tool of catalog.tools) if (tool.kind === word) chosen.add(tool.name);
    } else if (catalog.byName.has(word)) {
      chosen.add(word);
    } else {
      throw new InvalidInputError(
        `X-Specbase-Tools names ${JSON.stringify(word.slice(0, 60))}, which is neither a tool kind (${KINDS.join(', ')}) nor a tool name; tools/list names the tools`,
      );
    }
  }
  return chosen;
}

/** The narrower of two connections: a session opened read-only stays so whatever a later request says. */
export function narrowest(a: Connection, b: Connection): Connection {
  const tools = a.tools && b.tools ? new Set([...a.tools].filter((name) => b.tools!.has(name))) : (a.tools ?? b.tools);
  const toolsAsked = a.tools ? a.toolsAsked : b.toolsAsked;
  return {
    readOnly: a.readOnly || b.readOnly,
    ...(tools ? { tools } : {}),
    ...(toolsAsked !== undefined ? { toolsAsked } : {}),
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
    return (
      `${tool.name} changes the specification, and this connection is read-only: ${READ_ONLY_BECAUSE[connection.readOnly]}; ` +
      'tools/list names what it can do'
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
