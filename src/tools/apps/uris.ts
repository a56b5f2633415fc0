import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';

/**
 * The MCP Apps (ext-apps) of Specbase: HTML views a host renders beside a tool's result. Each
 * is one `ui://` resource; a tool names the view of its result in `_meta.ui.resourceUri`.
 */
export const APP_URIS = Object.freeze({
  artifact: 'ui://specbase/artifact',
  change: 'ui://specbase/change',
  search: 'ui://specbase/search',
  review: 'ui://specbase/change-request',
});

export type AppName = keyof typeof APP_URIS;

export const APP_NAMES = Object.keys(APP_URIS) as AppName[];

export const APP_MIME_TYPE = RESOURCE_MIME_TYPE;

export const appNameOf = (uri: string): AppName | undefined => APP_NAMES.find((name) => APP_URIS[name] === uri);

/**
 * Whether the client renders MCP Apps: it declares the extension with the app MIME type (the
 * ext-apps negotiation). Other clients see the tools and results of before, without app tools.
 */
export function rendersApps(capabilities: unknown): boolean {
  const ui = getUiCapability(capabilities as Parameters<typeof getUiCapability>[0]);
  return ui?.mimeTypes?.includes(APP_MIME_TYPE) ?? false;
}
