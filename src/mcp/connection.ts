import type { IncomingMessage } from 'node:http';
import { InvalidInputError } from '../errors.js';
import {
  FULL_CONNECTION,
  parseToolSelection,
  type Connection,
  type ReadOnlyReason,
  type ToolCatalog,
} from '../tools/index.js';
import type { McpRoute } from './routes.js';
import type { AuthenticatedUser } from './types.js';

export const READONLY_HEADER = 'x-specbase-readonly';
export const TOOLS_HEADER = 'x-specbase-tools';
export const CHANGE_REQUEST_HEADER = 'x-specbase-change-request';
/** The URL form, for clients that cannot send headers: `…/mcp?change_request=new`. */
export const CHANGE_REQUEST_PARAMETER = 'change_request';

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

/**
 * What a request's connection may use, from its credential (a read-only token or grant), its URL
 * (`…/readonly/mcp`, `…/manage/mcp`) and its headers (`X-Specbase-Readonly: true`,
 * `X-Specbase-Tools`). A credential made read-only stays so whatever the headers say, and a
 * read-only connection never gets the manage tools. Throws InvalidInputError for a header it
 * cannot read, so that a typo does not silently leave a connection writable.
 */
export function connectionOf(
  catalog: ToolCatalog,
  req: IncomingMessage,
  route: McpRoute,
  user: AuthenticatedUser,
): Connection {
  const header = single(req.headers[READONLY_HEADER])?.trim().toLowerCase();
  if (header !== undefined && header !== 'true' && header !== 'false') {
    throw new InvalidInputError(`X-Specbase-Readonly is ${JSON.stringify(header.slice(0, 20))}; send true or false`);
  }
  const readOnly: ReadOnlyReason | false = user.readOnly
    ? 'credential'
    : route.readOnly
      ? 'url'
      : header === 'true'
        ? 'header'
        : false;
  const asked = single(req.headers[TOOLS_HEADER]);
  const changeRequest = changeRequestOf(req, route);
  if (!readOnly && asked === undefined && !route.manage && changeRequest === undefined) return FULL_CONNECTION;
  const selection = asked === undefined ? {} : parseToolSelection(asked, catalog);
  const optIn = new Set([
    ...(selection.optIn ?? []),
    ...(route.manage ? (['manage'] as const) : []),
    // Working on a change request brings the tools to open, read and submit it.
    ...(changeRequest !== undefined ? (['review'] as const) : []),
  ]);
  return {
    readOnly,
    ...(selection.tools ? { tools: selection.tools, toolsAsked: asked!.slice(0, 200) } : {}),
    ...(optIn.size > 0 ? { optIn } : {}),
    ...(changeRequest !== undefined ? { changeRequest } : {}),
  };
}

const CHANGE_REQUEST_VALUE = /^(?:new|(?:cr\/|#)?([1-9]\d{0,8}))$/i;

/** `new`, `12`, `#12` or `cr/12`, from the header or else the URL; undefined when neither says. */
function changeRequestOf(req: IncomingMessage, route: McpRoute): number | 'new' | undefined {
  const value = (
    single(req.headers[CHANGE_REQUEST_HEADER]) ??
    route.query.get(CHANGE_REQUEST_PARAMETER) ??
    undefined
  )?.trim();
  if (value === undefined) return undefined;
  const match = CHANGE_REQUEST_VALUE.exec(value);
  if (!match) {
    throw new InvalidInputError(
      `X-Specbase-Change-Request is ${JSON.stringify(value.slice(0, 40))}; send new (your draft through this client, opened by your first change) or a change request's number`,
    );
  }
  return match[1] === undefined ? 'new' : Number(match[1]);
}
