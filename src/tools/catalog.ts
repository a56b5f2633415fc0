import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { boundedMemo } from '../bounded-memo.js';
import { APP_TOOLS } from './apps/tools.js';
import { APP_URIS } from './apps/uris.js';
import { FULL_CONNECTION, offers, type Connection } from './connection.js';
import { MANAGE_TOOLS } from './manage/index.js';
import { REVIEW_TOOLS } from './review/index.js';
import { TOOLS } from './table.js';
import { isReadOnly, type AnyToolDef, type ToolKind } from './types.js';

/** The tool table with its tools/list answer computed once, at start-up. */
export interface ToolCatalog {
  /** The model's tools, the opt-in ones (manage) included. */
  readonly tools: readonly AnyToolDef[];
  /** The model's tools and the app-only tools. */
  readonly byName: ReadonlyMap<string, AnyToolDef>;
  /** What a connection that asks for nothing is listed: the specification's 31 tools. */
  readonly listed: readonly Tool[];
  /**
   * The tools/list answer of a connection, computed once per kind of connection. A client that
   * renders MCP Apps (`apps`) gets each tool's app in `_meta.ui` and the app-only tools after them.
   */
  listedFor(connection: Connection, apps?: boolean): readonly Tool[];
}

/**
 * tools/list is read by the model on every conversation: the whole answer, with the MCP Apps
 * metadata and on the wire, stays under 25 KB.
 */
export const TOOLS_LIST_BUDGET_BYTES = 25 * 1024;

/** Distinct tool selections remembered (each is a short array of shared definitions). */
const MAX_SELECTIONS = 256;

type JsonSchema = Record<string, unknown>;

/**
 * tools/list is read by the model on every conversation, so its JSON stays lean: no `$schema`
 * (clients read draft-07 anyway), `"type": ["string", "null"]` instead of an `anyOf` pair, no
 * safe-integer bounds that zod adds to every integer,
 * and outputs without `additionalProperties: false`, `required` or `items: {}`: the server parses every
 * result with the zod output schema before sending it, so what it declares always holds.
 */
function compact(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, io));
  if (!node || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (
    anyOf?.length === 2 &&
    anyOf[1]?.type === 'null' &&
    typeof anyOf[0]?.type === 'string' &&
    Object.keys(anyOf[0]).length === 1
  ) {
    const { anyOf: _pair, ...rest } = schema;
    return { ...rest, type: [anyOf[0].type, 'null'] };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || (io === 'output' && (key === 'required' || key === 'additionalProperties'))) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'properties' && Object.keys(value as JsonSchema).length === 0) continue;
    // `items: {}` (an array of anything) says nothing an output schema needs to.
    if (io === 'output' && key === 'items' && isEmptySchema(value)) continue;
    out[key] = key === 'properties' ? compactProperties(value as JsonSchema, io) : compact(value, io);
  }
  return out;
}

const isEmptySchema = (value: unknown): boolean =>
  !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

/** Property names are data, not keywords: a property called `required` must survive. */
function compactProperties(properties: JsonSchema, io: 'input' | 'output'): JsonSchema {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, compact(schema, io)]));
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  return compact(z.toJSONSchema(schema, { io, target: 'draft-7' }), io) as Tool['inputSchema'];
}

/**
 * A tool as tools/list shows it. With `apps`, the tool names the app that shows its result. An
 * app-only tool is kept from the model by its hosts (`visibility: ["app"]`) and called only by
 * Specbase's own apps, which know its arguments (checked here as any tool's): its name is all a
 * host needs, and tools/list stays within its budget.
 */
export function toolDefinition(tool: AnyToolDef, apps = false): Tool {
  if (tool.appOnly) {
    return { name: tool.name, inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } };
  }
  const readOnly = isReadOnly(tool.kind) || tool.hints?.readOnly === true;
  // readOnlyHint defaults to false, destructiveHint to true and idempotentHint to false: state
  // what differs, and destructiveHint: true where a tool's kind does not say it (manage).
  const destructive = tool.hints?.destructive === true;
  const hints = readOnly
    ? { readOnlyHint: true }
    : {
        destructiveHint: destructive,
        ...(tool.hints?.idempotent ? { idempotentHint: true } : {}),
      };
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...hints },
    ...(apps && tool.app ? { _meta: { ui: { resourceUri: APP_URIS[tool.app] } } } : {}),
  };
}

/**
 * The catalog of `tools` (the default connection's), the opt-in ones (manage, review) after them and the
 * app-only tools last, in the order tools/list shows them.
 */
export function buildCatalog(
  defaultTools: readonly AnyToolDef[] = TOOLS,
  appTools: readonly AnyToolDef[] = APP_TOOLS,
  optInTools: readonly AnyToolDef[] = [...MANAGE_TOOLS, ...REVIEW_TOOLS],
): ToolCatalog {
  const tools = [...defaultTools, ...optInTools];
  const all = [...tools, ...appTools];
  const byName = new Map(all.map((tool) => [tool.name, tool]));
  if (byName.size !== all.length) throw new Error('tool names must be unique');
  const modelDefinitions = tools.map((tool) => toolDefinition(tool));
  const appDefinitions = all.map((tool) => toolDefinition(tool, true));
  const selected = boundedMemo(MAX_SELECTIONS, (key: string) => {
    const [readOnly, apps, names, optIn] = key.split('|');
    const connection: Connection = {
      readOnly: readOnly === '1' ? 'header' : false,
      ...(names ? { tools: new Set(names.split(',')) } : {}),
      ...(optIn ? { optIn: new Set(optIn.split(',') as ToolKind[]) } : {}),
    };
    if (apps !== '1') return Object.freeze(modelDefinitions.filter((_, i) => offers(connection, tools[i]!)));
    return Object.freeze(appDefinitions.filter((_, i) => offers(connection, all[i]!)));
  });
  const sorted = (values: Iterable<string> | undefined) => (values ? [...values].sort().join(',') : '');
  const keyOf = (connection: Connection, apps: boolean) =>
    `${connection.readOnly ? 1 : 0}|${apps ? 1 : 0}|${sorted(connection.tools)}|${sorted(connection.optIn)}`;
  const listed = selected(keyOf(FULL_CONNECTION, false));
  const listedWithApps = selected(keyOf(FULL_CONNECTION, true));
  // The default connection is nearly every one: its answers are held, not looked up.
  const listedFor = (connection: Connection, apps = false) =>
    !connection.readOnly && !connection.tools && !connection.optIn
      ? apps
        ? listedWithApps
        : listed
      : selected(keyOf(connection, apps));
  return Object.freeze({ tools: Object.freeze(tools), byName, listed, listedFor });
}
