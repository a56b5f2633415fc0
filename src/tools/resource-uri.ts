/**
 * Every readable artifact is an MCP resource: `specbase://o/{orgId}/artifact/{id}`. The
 * organization is part of the URI so that a URI means one artifact wherever it is shown; the
 * type is not, since ids are unique across types and a type can be looked up.
 */
export const RESOURCE_MIME_TYPE = 'text/markdown';

export const artifactUri = (orgId: string, id: string): string => `specbase://o/${orgId}/artifact/${id}`;

/** The template as listed to a caller: the organization filled in, the artifact id to complete. */
export const artifactTemplate = (orgId: string): string => `specbase://o/${orgId}/artifact/{id}`;

/** The generic form, for documentation and for completion requests that name it. */
export const ARTIFACT_TEMPLATE = 'specbase://o/{orgId}/artifact/{id}';

const ARTIFACT_URI = /^specbase:\/\/o\/([0-9a-f-]{36})\/artifact\/([^/?#]+)$/i;

/** The organization and artifact a URI names, or undefined when it is not one of ours. */
export function parseArtifactUri(uri: string): { orgId: string; id: string } | undefined {
  const match = ARTIFACT_URI.exec(uri);
  return match ? { orgId: match[1]!.toLowerCase(), id: match[2]!.toLowerCase() } : undefined;
}
