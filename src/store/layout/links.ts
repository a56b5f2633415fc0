const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/**
 * A link naming an artifact's web address `…/o/<org>/a/<id>`: the target of `[text](target)`,
 * `<target>` or `[ref]: target` (absolute or from the root), or a bare web address (GFM autolink).
 */
const TARGET = new RegExp(
  `(?:(?:\\]\\(\\s*<?|<|^\\s{0,3}\\[[^\\]]+\\]:\\s*<?)(?:https?://[^\\s/)>]+)?|(?:^|(?<=[\\s(]))https?://[^\\s/)>]+)/o/(${UUID})/a/(${UUID})(?=[/?#)>\\s"'.,;:!]|$)`,
  'gm',
);

/**
 * Every artifact address a markdown body links to, as `<org id>/<artifact id>` in lower case,
 * each once, in order: a markdown link, an autolink or a reference definition whose target is an
 * artifact's `url` (any host: a document keeps its links when the service's address changes).
 * Kept in the catalog per artifact, so that the links of a whole organization are known without
 * reading its bodies.
 */
export function linkTargets(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(TARGET)) found.add(`${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}`);
  return [...found];
}

/** The ids among `targets` (see linkTargets) of artifacts of `orgId`. */
export function idsInOrg(targets: readonly string[], orgId: string): string[] {
  const prefix = `${orgId.toLowerCase()}/`;
  return targets.filter((target) => target.startsWith(prefix)).map((target) => target.slice(prefix.length));
}

/** The ids of the artifacts of `orgId` a markdown body links to, each once, in order. */
export const linkedIds = (body: string, orgId: string): string[] => idsInOrg(linkTargets(body), orgId);
