import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './address-policy.js';

export interface DocumentFetchPolicy {
  /** One `host:port` whose loopback addresses may be fetched from: for tests, unset in production. */
  readonly allowLoopbackHost?: string;
  /** Extra trusted certificates (PEM), for a private CA. */
  readonly ca?: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

export interface FetchedDocument {
  readonly json: unknown;
  /** The response's Cache-Control / Expires, for the cache to read. */
  readonly cacheControl: string | undefined;
  readonly expires: string | undefined;
  readonly date: string | undefined;
}

export class DocumentFetchError extends Error {}

async function resolved(host: string): Promise<{ address: string; family: number }[]> {
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new DocumentFetchError(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
}

/** The one address the connection may use: every address of the name must be allowed. */
async function vettedAddress(url: URL, policy: DocumentFetchPolicy): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolved(host);
  if (addresses.length === 0) throw new DocumentFetchError(`${url.host} does not resolve`);
  const loopbackAllowed = policy.allowLoopbackHost !== undefined && url.host === policy.allowLoopbackHost;
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !(loopbackAllowed && isLoopbackAddress(address))) {
      throw new DocumentFetchError(`${url.host} resolves to ${address}, a private, loopback or link-local address`);
    }
  }
  return addresses[0]!;
}

/**
 * GET a client metadata document safely: https only, to an address checked before connecting
 * (and then connected to, so that a second DNS answer cannot swap it), no redirects, bounded
 * in size and time.
 */
export async function fetchDocument(url: URL, policy: DocumentFetchPolicy): Promise<FetchedDocument> {
  if (url.protocol !== 'https:') throw new DocumentFetchError('the client id must be an https URL');
  const target = await vettedAddress(url, policy);
  return new Promise<FetchedDocument>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { Accept: 'application/json' },
        lookup: (_host, _options, callback) => callback(null, target.address, target.family),
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? '' : url.hostname,
        ...(policy.ca ? { ca: policy.ca } : {}),
        timeout: policy.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          res.resume();
          reject(new DocumentFetchError(status >= 300 && status < 400 ? `the document redirects (HTTP ${status}); redirects are not followed` : `the document answered HTTP ${status}`));
          return;
        }
        if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(res.headers['content-type'] ?? '')) {
          res.resume();
          reject(new DocumentFetchError('the document is not application/json'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            req.destroy(new DocumentFetchError(`the document is larger than ${policy.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          try {
            resolve({
              json: JSON.parse(Buffer.concat(chunks).toString('utf8')),
              cacheControl: res.headers['cache-control'],
              expires: res.headers.expires,
              date: res.headers.date,
            });
          } catch {
            reject(new DocumentFetchError('the document is not valid JSON'));
          }
        });
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(() => req.destroy(new DocumentFetchError(`no complete answer within ${policy.timeoutMs} ms`)), policy.timeoutMs);
    req.on('timeout', () => req.destroy(new DocumentFetchError(`no answer within ${policy.timeoutMs} ms`)));
    req.on('error', (error) => reject(error instanceof DocumentFetchError ? error : new DocumentFetchError(`fetching the document failed: ${error.message}`)));
    req.on('close', () => clearTimeout(deadline));
    req.end();
  });
}
