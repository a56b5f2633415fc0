import { wikiKey, wikiTitleOf } from '../../artifacts/index.js';
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** Where a markdown link's target starts: `[text](`, `<`, or a reference definition `[ref]: `. */
const OPENER = '(?:\\]\\(\\s*<?|<|^\\s{0,3}\\[[^\\]]+\\]:\\s*<?)';
const END = `(?=[/?#)>\\s"'.,;:!]|$)`;
/**
 * A link naming an artifact's web address `…/o/<org>/a/<id>`: the target of `[text](target)`,
 * `<target>` or `[ref]: target` (absolute or from the root), or a bare web address (GFM autolink).
 */
const WEB_TARGET = new RegExp(
  `(?:${OPENER}(?:https?://[^\\s/)>]+)?|(?:^|(?<=[\\s(]))https?://[^\\s/)>]+)/o/(${UUID})/a/(${UUID})${END}`,
  'gm',
);
/** A link naming an artifact's resource URI `specbase://o/<org>/artifact/<id>`, as search results hand it out. */
const URI_TARGET = new RegExp(`${OPENER}specbase://o/(${UUID})/artifact/(${UUID})${END}`, 'gmi');
/** `[[Title]]` or `[[Title|label]]`: a link by title, resolved when read. */
const WIKI_LINK = /\[\[([^[\]|\n]+)(?:\|[^[\]\n]*)?\]\]/g;

/**
 * Every artifact a markdown body links to, each once, in the order written: `<org id>/<artifact
 * id>` in lower case for a markdown link, an autolink or a reference definition whose target is an
 * artifact's `url` (any host: a document keeps its links when the service's address changes) or
 * its `specbase://` URI; a wiki key (see wikiKey) for `[[Title]]`. Kept in the catalog per
 * artifact, so that the links of a whole organization are known without reading its bodies.
 */
export function linkTargets(body: string): string[] {
  const found: { at: number; target: string }[] = [];
  for (const pattern of [WEB_TARGET, URI_TARGET]) {
    for (const match of body.matchAll(pattern))
      found.push({ at: match.index, target: `${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}` });
  }
  for (const match of body.matchAll(WIKI_LINK)) {
    if (match[1]!.trim()) found.push({ at: match.index, target: wikiKey(match[1]!) });
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((link) => link.target))];
}

/**
 * What of `targets` (see linkTargets) an organization's link index keeps: the ids of artifacts of
 * `orgId`, and the wiki keys (titles are looked up in the organization the body is in).
 */
export function linkKeysInOrg(targets: readonly string[], orgId: string): string[] {
  const prefix = `${orgId.toLowerCase()}/`;
  return targets.flatMap((target) =>
    target.startsWith(prefix) ? [target.slice(prefix.length)] : wikiTitleOf(target) !== undefined ? [target] : [],
  );
}

/** The ids among `targets` (see linkTargets) of artifacts of `orgId`. */
export function idsInOrg(targets: readonly string[], orgId: string): string[] {
  const prefix = `${orgId.toLowerCase()}/`;
  return targets.filter((target) => target.startsWith(prefix)).map((target) => target.slice(prefix.length));
}

/** The ids of the artifacts of `orgId` a markdown body links to, each once, in order. */
export const linkedIds = (body: string, orgId: string): string[] => idsInOrg(linkTargets(body), orgId);
