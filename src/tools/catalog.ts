import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { boundedMemo } from '../bounded-memo.js';
import { offers, type Connection } from './connection.js';
import { TOOLS } from './table.js';
import { isReadOnly, type AnyToolDef } from './types.js';

/** The tool table with its tools/list answer computed once, at start-up. */
export interface ToolCatalog {
  readonly tools: readonly AnyToolDef[];
  readonly byName: ReadonlyMap<string, AnyToolDef>;
  readonly listed: readonly Tool[];
  /** The tools/list answer of a read-only or filtered connection, computed once per kind of connection. */
  listedFor(connection: Connection): readonly Tool[];
}

/** Distinct tool selections remembered (each is a short array of shared definitions). */
const MAX_SELECTIONS = 256;

type JsonSchema = Record<string, unknown>;

/**
 * tools/list is read by the model on every conversation, so its JSON stays lean: no `$schema`
 * (clients read draft-07 anyway), `"type": ["string", "null"]` instead of an `anyOf` pair, no
 * safe-integer bounds that zod adds to every integer,
 * and outputs without `additionalProperties: false` or `required`: the server parses every
 * result with the zod output schema before sending it, so what it declares always holds.
 */
function compact(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, io));
  if (!node || typeof node !== 'object') return node;
  const schema = node as JsonSchema;
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2 && anyOf[1]?.type === 'null' && typeof anyOf[0]?.type === 'string' && Object.keys(anyOf[0]).length === 1) {
    const { anyOf: _pair, ...rest } = schema;
    return { ...rest, type: [anyOf[0].type, 'null'] };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || (io === 'output' && (key === 'required' || key === 'additionalProperties'))) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = key === 'properties' ? compactProperties(value as JsonSchema, io) : compact(value, io);
  }
  return out;
}

/** Property names are data, not keywords: a property called `required` must survive. */
function compactProperties(properties: JsonSchema, io: 'input' | 'output'): JsonSchema {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, compact(schema, io)]));
}

function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): Tool['inputSchema'] {
  return compact(z.toJSONSchema(schema, { io, target: 'draft-7' }), io) as Tool['inputSchema'];
}

export function toolDefinition(tool: AnyToolDef): Tool {
  const readOnly = isReadOnly(tool.kind);
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output') as Tool['outputSchema'],
    // readOnlyHint defaults to false and destructiveHint to true: state only what differs.
    annotations: { title: tool.title, ...(readOnly ? { readOnlyHint: true } : { destructiveHint: false }) },
  };
}

export function buildCatalog(tools: readonly AnyToolDef[] = TOOLS): ToolCatalog {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  if (byName.size !== tools.length) throw new Error('tool names must be unique');
  const listed = Object.freeze(tools.map(toolDefinition));
  const selected = boundedMemo(MAX_SELECTIONS, (key: string) => {
    const [readOnly, names] = key.split('|');
    const connection: Connection = { readOnly: readOnly === '1' ? 'header' : false, ...(names ? { tools: new Set(names.split(',')) } : {}) };
    return Object.freeze(listed.filter((_, i) => offers(connection, tools[i]!)));
  });
  const listedFor = (connection: Connection) =>
    !connection.readOnly && !connection.tools ? listed : selected(`${connection.readOnly ? 1 : 0}|${connection.tools ? [...connection.tools].sort().join(',') : ''}`);
  return Object.freeze({ tools, byName, listed, listedFor });
}
