import { artifactType } from '../artifacts/index.js';
import { NotFoundError } from '../errors.js';
import type { Actor, ListItemView } from '../domain/types.js';
import type { McpHandler, RequestContext, ToolServerDeps } from './handler-types.js';
import { appsReach, protocolError } from './handler-types.js';
import { APP_RESOURCES, readAppResource } from './apps/resources.js';
import {
  artifactTemplate,
  ARTIFACT_TEMPLATE,
  artifactUri,
  parseArtifactUri,
  RESOURCE_MIME_TYPE,
} from './resource-uri.js';

/** resources/list answers this many per page. */
export const RESOURCE_PAGE_SIZE = 100;
/** completion/complete answers at most this many values, as the specification allows. */
const MAX_COMPLETIONS = 100;
/** JSON-RPC "resource not found", as the specification names it. */
const RESOURCE_NOT_FOUND = -32002;

const actorOf = async (request: RequestContext): Promise<Actor> => ({
  principal: await request.scope.principal(),
  ...(request.client ? { client: request.client } : {}),
});

function resourceOf(orgId: string, item: ListItemView) {
  return {
    uri: artifactUri(orgId, item.id),
    name: item.title,
    title: item.title,
    description: artifactType(item.type).name,
    mimeType: RESOURCE_MIME_TYPE,
  };
}

/** The cursor is the offset of the next page, opaque to clients. */
const cursorOf = (offset: number): string => Buffer.from(String(offset)).toString('base64url');

function offsetOf(cursor: unknown): number {
  if (cursor === undefined) return 0;
  const offset = typeof cursor === 'string' ? Number(Buffer.from(cursor, 'base64url').toString()) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw protocolError('invalid cursor: pass the nextCursor of the previous resources/list answer');
  return offset;
}

/**
 * The specification's "resource not found", naming the URI in `data` as both revisions ask: the
 * v2 client recognizes the error by it, and the 2026-07-28 server maps the code to -32602.
 */
function resourceNotFound(uri: unknown): Error {
  const named = String(uri).slice(0, 200);
  return protocolError(`resource not found: ${JSON.stringify(named)}`, RESOURCE_NOT_FOUND, { uri: named });
}

/** The artifact a URI of the caller's organization names; the specification's "not found" for anything else. */
function artifactIdOf(uri: unknown, request: RequestContext): string {
  const parsed = typeof uri === 'string' ? parseArtifactUri(uri) : undefined;
  if (!parsed || parsed.orgId !== request.scope.orgId) throw resourceNotFound(uri);
  return parsed.id;
}

function notFound(uri: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof NotFoundError) throw resourceNotFound(uri);
    throw error;
  };
}

/** Ids whose artifact's title contains what was typed (or whose id starts with it), best first. */
export function completeIds(
  items: readonly ListItemView[],
  typed: string,
): { values: string[]; total: number; hasMore: boolean } {
  const needle = typed.trim().toLowerCase();
  const rank = (item: ListItemView): number => {
    const title = item.title.toLowerCase();
    if (needle === '') return 2;
    if (item.id.startsWith(needle)) return 0;
    if (title.startsWith(needle)) return 1;
    return title.includes(needle) ? 2 : -1;
  };
  const matches = items
    .map((item) => ({ item, rank: rank(item) }))
    .filter((match) => match.rank >= 0)
    .sort((a, b) => a.rank - b.rank);
  return {
    values: matches.slice(0, MAX_COMPLETIONS).map((match) => match.item.id),
    total: matches.length,
    hasMore: matches.length > MAX_COMPLETIONS,
  };
}

/** The resource methods of the MCP surface: artifacts as markdown resources. */
export function resourceHandlers(deps: Pick<ToolServerDeps, 'specs' | 'render'>): McpHandler[] {
  const { specs } = deps;
  return [
    {
      method: 'resources/list',
      async handle(params, request) {
        const offset = offsetOf(params?.cursor);
        const items = await specs.listReadable(await actorOf(request));
        const page = items.slice(offset, offset + RESOURCE_PAGE_SIZE);
        const next = offset + RESOURCE_PAGE_SIZE;
        // The apps come first, outside the paging: only clients that render them see them.
        const apps = appsReach(deps, request) && offset === 0 ? APP_RESOURCES : [];
        return {
          resources: [...apps, ...page.map((item) => resourceOf(request.scope.orgId, item))],
          ...(next < items.length ? { nextCursor: cursorOf(next) } : {}),
        };
      },
    },
    {
      method: 'resources/templates/list',
      async handle(_params, request) {
        return {
          resourceTemplates: [
            {
              uriTemplate: artifactTemplate(request.scope.orgId),
              name: 'artifact',
              title: 'Specbase artifact',
              description: 'Any artifact of this organization as markdown; the id completes from its title',
              mimeType: RESOURCE_MIME_TYPE,
            },
          ],
        };
      },
    },
    {
      method: 'resources/read',
      async handle(params, request) {
        const uri = String(params?.uri ?? '');
        const app = deps.render !== undefined ? readAppResource(uri) : undefined;
        if (app) return app;
        const id = artifactIdOf(uri, request);
        const view = await specs.readAny(await actorOf(request), id, 'full').catch(notFound(uri));
        return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: view.content }] };
      },
    },
    {
      method: 'resources/subscribe',
      legacyOnly: true,
      async handle(params, request) {
        const uri = String(params?.uri ?? '');
        const id = artifactIdOf(uri, request);
        // Only what the caller can read now; the notifications check again on every change.
        await specs.readAny(await actorOf(request), id, 'concise').catch(notFound(uri));
        request.subscriptions?.add(uri);
        return {};
      },
    },
    {
      method: 'resources/unsubscribe',
      legacyOnly: true,
      async handle(params, request) {
        request.subscriptions?.remove(String(params?.uri ?? ''));
        return {};
      },
    },
  ];
}

/** completion/complete for the artifact template: ids by title. Undefined for other references. */
export async function completeResource(
  deps: Pick<ToolServerDeps, 'specs'>,
  ref: { type?: unknown; uri?: unknown },
  argument: { name?: unknown; value?: unknown },
  request: RequestContext,
): Promise<{ values: string[]; total: number; hasMore: boolean } | undefined> {
  if (ref.type !== 'ref/resource') return undefined;
  if (ref.uri !== ARTIFACT_TEMPLATE && ref.uri !== artifactTemplate(request.scope.orgId))
    return { values: [], total: 0, hasMore: false };
  if (argument.name !== 'id') return { values: [], total: 0, hasMore: false };
  return completeIds(await deps.specs.listReadable(await actorOf(request)), String(argument.value ?? ''));
}
