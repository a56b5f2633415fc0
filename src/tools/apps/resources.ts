import { appPage } from './page.js';
import { APP_MIME_TYPE, APP_NAMES, APP_URIS, appNameOf, type AppName } from './uris.js';

const DESCRIPTIONS: Record<AppName, string> = {
  artifact: 'An artifact as the web application shows it: type, place in the tree, version, last author',
  change: 'An edit just made, its changed words highlighted, with Revert this change',
  search: 'Search results with type badges and places in the tree, each opening the artifact view',
  review: "A change request's combined diff across artifacts, with Merge and Close for the person reviewing it",
};

/**
 * No network and no outside resources: everything an app needs is inline in its HTML. Hosts
 * build the frame's policy from this (empty domain lists are the strictest policy).
 */
const UI_META = Object.freeze({
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
});

/** The apps as resources/list entries, for clients that render them. */
export const APP_RESOURCES = Object.freeze(
  APP_NAMES.map((name) => ({
    uri: APP_URIS[name],
    name: `specbase-${name}`,
    title: `Specbase ${name} view`,
    description: DESCRIPTIONS[name],
    mimeType: APP_MIME_TYPE,
    _meta: UI_META,
  })),
);

/** resources/read of an app; undefined for a URI that names none. */
export function readAppResource(uri: string): Record<string, unknown> | undefined {
  const name = appNameOf(uri);
  if (!name) return undefined;
  return { contents: [{ uri, mimeType: APP_MIME_TYPE, text: appPage(name), _meta: UI_META }] };
}
