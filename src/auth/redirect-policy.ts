const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that would run code or read local data in the browser instead of reaching an app. */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'file:',
  'vbscript:',
  'about:',
  'blob:',
  'filesystem:',
  'ws:',
  'wss:',
  'ftp:',
]);

/**
 * Why a redirect URI may not be registered, or undefined when it may: loopback http (any
 * port, RFC 8252), https, or a private-use scheme of a desktop client (`cursor://…`).
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI ${JSON.stringify(uri)} is not an absolute URL`;
  }
  if (uri.includes('#')) return `redirect URI ${uri} must not contain a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname)
      ? undefined
      : `redirect URI ${uri} uses http on a host other than 127.0.0.1, localhost or [::1]; use https`;
  }
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `redirect URI scheme ${url.protocol} is not allowed`;
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? undefined : `redirect URI scheme ${url.protocol} is not allowed`;
}
