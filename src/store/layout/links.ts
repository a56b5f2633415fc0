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
 * The ids of the artifacts of `orgId` a markdown body links to, each once, in order: a markdown
 * link, an autolink or a reference definition whose target is an artifact's `url` (any host: a
 * document keeps its links when the service's address changes).
 */
export function linkedIds(body: string, orgId: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(TARGET)) {
    if (match[1]!.toLowerCase() === orgId.toLowerCase()) found.add(match[2]!.toLowerCase());
  }
  return [...found];
}
