/**
 * Bounds on what a client may tell us about itself: the metadata is stored, and its name is
 * shown on the consent screen. Generous for real clients, small enough that nobody stores
 * megabytes through an open registration endpoint.
 */
export const CLIENT_METADATA_LIMITS = Object.freeze({
  maxNameChars: 200,
  maxRedirectUris: 10,
  maxUriChars: 2000,
  maxMetadataBytes: 8 * 1024,
});

/** Why the metadata is too large, or undefined when it fits. */
export function clientMetadataSizeProblem(metadata: {
  client_name?: string | undefined;
  redirect_uris: readonly string[];
}): string | undefined {
  const limits = CLIENT_METADATA_LIMITS;
  if ((metadata.client_name?.length ?? 0) > limits.maxNameChars) {
    return `client_name is ${metadata.client_name!.length} characters; the limit is ${limits.maxNameChars}`;
  }
  if (metadata.redirect_uris.length > limits.maxRedirectUris) {
    return `${metadata.redirect_uris.length} redirect URIs; the limit is ${limits.maxRedirectUris}`;
  }
  const long = metadata.redirect_uris.find((uri) => uri.length > limits.maxUriChars);
  if (long) return `a redirect URI is ${long.length} characters; the limit is ${limits.maxUriChars}`;
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (bytes > limits.maxMetadataBytes)
    return `the client metadata is ${bytes} bytes; the limit is ${limits.maxMetadataBytes}`;
  return undefined;
}
