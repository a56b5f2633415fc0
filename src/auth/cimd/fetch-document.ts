import { outboundRequest, OutboundRequestError, type OutboundPolicy } from '../../net/index.js';

export type DocumentFetchPolicy = OutboundPolicy;

export interface FetchedDocument {
  readonly json: unknown;
  /** The response's Cache-Control / Expires, for the cache to read. */
  readonly cacheControl: string | undefined;
  readonly expires: string | undefined;
  readonly date: string | undefined;
}

export class DocumentFetchError extends Error {}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * GET a client metadata document safely, with the defenses of every request to a URL someone
 * else chose (see outboundRequest): https, public addresses only, no redirects, bounded in
 * size and time.
 */
export async function fetchDocument(url: URL, policy: DocumentFetchPolicy): Promise<FetchedDocument> {
  if (url.protocol !== 'https:') throw new DocumentFetchError('the client id must be an https URL');
  let res;
  try {
    res = await outboundRequest(url, policy, { method: 'GET', headers: { Accept: 'application/json' } });
  } catch (error) {
    // A client developer debugging their own document is told how its host resolved, as before
    // (issue 46 keeps the rule-only sentences to webhooks, whose errors organization admins read).
    if (error instanceof OutboundRequestError)
      throw new DocumentFetchError(error.detail.replace(/^the answer is/, 'the document is'));
    throw error;
  }
  if (res.status !== 200) {
    throw new DocumentFetchError(
      res.status >= 300 && res.status < 400
        ? `the document redirects (HTTP ${res.status}); redirects are not followed`
        : `the document answered HTTP ${res.status}`,
    );
  }
  if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(header(res.headers['content-type']) ?? ''))
    throw new DocumentFetchError('the document is not application/json');
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new DocumentFetchError('the document is not valid JSON');
  }
  return {
    json,
    cacheControl: header(res.headers['cache-control']),
    expires: header(res.headers.expires),
    date: header(res.headers.date),
  };
}
