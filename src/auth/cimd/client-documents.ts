import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { clientMetadataSizeProblem } from '../client-metadata-limits.js';
import { redirectUriProblem } from '../redirect-policy.js';
import { DocumentFetchError, fetchDocument, type DocumentFetchPolicy, type FetchedDocument } from './fetch-document.js';

export interface ClientDocumentsOptions extends DocumentFetchPolicy {
  /** A document's own cache lifetime is honoured up to this. */
  readonly maxCacheSeconds: number;
  /** Lifetime of a document that states none. */
  readonly defaultCacheSeconds: number;
  readonly maxEntries: number;
  readonly now?: () => number;
}

export const DEFAULT_CLIENT_DOCUMENTS: ClientDocumentsOptions = Object.freeze({
  maxBytes: 16 * 1024,
  timeoutMs: 5_000,
  maxCacheSeconds: 24 * 3600,
  defaultCacheSeconds: 300,
  maxEntries: 1_000,
});

/** A client id that names a Client ID Metadata Document: an https URL with a path. */
export function isClientIdUrl(clientId: string): boolean {
  return clientId.startsWith('https://') && URL.canParse(clientId) && !['', '/'].includes(new URL(clientId).pathname);
}

/** Why the URL cannot be a client id (draft-ietf-oauth-client-id-metadata-document §3), or undefined. */
function clientIdUrlProblem(clientId: string): string | undefined {
  const url = new URL(clientId);
  if (url.username || url.password) return 'the client id URL must not contain credentials';
  // "localhost." is "localhost" to a resolver but not to a comparison of names: refused, not guessed.
  if (url.hostname.endsWith('.')) return "the client id URL's host must not end with a dot";
  if (clientId.includes('#')) return 'the client id URL must not contain a fragment';
  if (/\/\.\.?(\/|$|\?)/.test(clientId.replace(/^https:\/\/[^/]*/, '')))
    return 'the client id URL must not contain dot segments';
  return undefined;
}

/** Seconds the response may be reused, from Cache-Control or Expires, capped. */
function cacheSeconds(doc: FetchedDocument, options: ClientDocumentsOptions): number {
  const control = (doc.cacheControl ?? '').toLowerCase();
  if (/\b(no-store|no-cache|private)\b/.test(control)) return 0;
  const maxAge = /\bmax-age=(\d+)/.exec(control)?.[1];
  let seconds = options.defaultCacheSeconds;
  if (maxAge !== undefined) seconds = Number(maxAge);
  else if (doc.expires) {
    const expires = Date.parse(doc.expires);
    const date = doc.date ? Date.parse(doc.date) : NaN;
    seconds = Number.isNaN(expires) ? 0 : Math.round((expires - (Number.isNaN(date) ? Date.now() : date)) / 1000);
  }
  return Math.max(0, Math.min(seconds, options.maxCacheSeconds));
}

function validated(clientId: string, json: unknown): OAuthClientInformationFull {
  const refuse = (why: string): never => {
    throw new InvalidClientError(`client metadata document ${clientId}: ${why}`);
  };
  if (!json || typeof json !== 'object' || Array.isArray(json)) return refuse('not a JSON object');
  const doc = json as Record<string, unknown>;
  if (doc.client_id !== clientId)
    return refuse(`its client_id ${JSON.stringify(doc.client_id)} is not the document's URL`);
  const redirects = doc.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0 || !redirects.every((uri) => typeof uri === 'string')) {
    return refuse('redirect_uris must be a non-empty list of URLs');
  }
  const name = doc.client_name;
  if (name !== undefined && typeof name !== 'string') return refuse('client_name must be a string');
  const tooLarge = clientMetadataSizeProblem({
    client_name: name as string | undefined,
    redirect_uris: redirects as string[],
  });
  if (tooLarge) return refuse(tooLarge);
  for (const uri of redirects as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) return refuse(problem);
  }
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none') {
    return refuse('only public clients (token_endpoint_auth_method "none") are supported');
  }
  if ('client_secret' in doc) return refuse('a client metadata document must not contain a client_secret');
  return {
    client_id: clientId,
    redirect_uris: redirects as string[],
    ...(typeof name === 'string' && name.trim() ? { client_name: name.trim() } : {}),
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

/**
 * Client ID Metadata Documents: a client names itself by the https URL of a JSON document
 * that lists its name and redirect URIs. Fetched safely, validated, and cached within the
 * document's own HTTP cache lifetime (capped).
 */
export class ClientDocuments {
  readonly #options: ClientDocumentsOptions;
  readonly #cache = new Map<string, { client: OAuthClientInformationFull; until: number }>();
  readonly #now: () => number;

  constructor(options: Partial<ClientDocumentsOptions> = {}) {
    this.#options = { ...DEFAULT_CLIENT_DOCUMENTS, ...options };
    this.#now = options.now ?? Date.now;
  }

  async resolve(clientId: string): Promise<OAuthClientInformationFull> {
    const cached = this.#cache.get(clientId);
    if (cached && cached.until > this.#now()) return cached.client;
    this.#cache.delete(clientId);
    const problem = clientIdUrlProblem(clientId);
    if (problem) throw new InvalidClientError(problem);
    let fetched: FetchedDocument;
    try {
      fetched = await fetchDocument(new URL(clientId), this.#options);
    } catch (error) {
      if (error instanceof DocumentFetchError)
        throw new InvalidClientError(`client metadata document ${clientId}: ${error.message}`);
      throw error;
    }
    const client = validated(clientId, fetched.json);
    const seconds = cacheSeconds(fetched, this.#options);
    if (seconds > 0) {
      if (this.#cache.size >= this.#options.maxEntries) this.#cache.delete(this.#cache.keys().next().value!);
      this.#cache.set(clientId, { client, until: this.#now() + seconds * 1000 });
    }
    return client;
  }
}
