import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './address-policy.js';

/**
 * How the service reaches a URL someone else chose (a client metadata document, a webhook
 * endpoint): https to a public address only, bounded in time and size.
 */
export interface OutboundPolicy {
  /** One `host:port` whose loopback addresses may be reached: for tests, unset in production. */
  readonly allowLoopbackHost?: string;
  /**
   * A developer's laptop: `localhost` and loopback addresses may be reached, over http too
   * (SPECBASE_WEBHOOK_ALLOW_LOCALHOST, only with a loopback base URL). Off in production.
   */
  readonly allowLocalhost?: boolean;
  /** Extra trusted certificates (PEM), for a private CA. */
  readonly ca?: string;
  /** The response body is read up to this many bytes; more is an error, unless `overflow` is `truncate`. */
  readonly maxBytes: number;
  /** `truncate`: the answer is its status and its first `maxBytes`, the rest is not read (a webhook's answer). */
  readonly overflow?: 'fail' | 'truncate';
  /** For the whole exchange, connecting included. */
  readonly timeoutMs: number;
}

export interface OutboundResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** Rules, never resolutions: the person who chose the URL learns nothing of our network from them. */
export const NOT_ALLOWED = 'the address is not allowed: private, loopback or link-local';
export const UNREACHABLE = 'the host could not be reached';
const TLS_REFUSED = "the endpoint's TLS certificate was not accepted";

/**
 * Why the request was not sent or not answered. `message` is one sentence for the person who
 * chose the URL, naming the rule; `detail` (how the name resolved, the system's error) is for
 * the server log only. `reason` says whether the address was refused or the host not reached.
 */
export class OutboundRequestError extends Error {
  constructor(
    message: string,
    readonly detail: string = message,
    readonly reason: 'refused' | 'unreachable' | 'failed' = 'failed',
  ) {
    super(message);
  }
}

async function resolved(host: string): Promise<{ address: string; family: number }[]> {
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new OutboundRequestError(UNREACHABLE, `${host} does not resolve (${code})`, 'unreachable');
  }
}

/** `localhost` or a loopback address, as written in the URL. */
const isLocalHost = (host: string) => host.toLowerCase() === 'localhost' || isLoopbackAddress(host);

/** Which scheme a URL may use under the policy: https, or http to localhost under the development setting. */
export function allowedScheme(url: URL, policy: Pick<OutboundPolicy, 'allowLocalhost'>): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && policy.allowLocalhost === true && isLocalHost(hostOf(url));
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The one address the connection may use: every address of the name must be allowed. Used
 * when an endpoint is added too, so that a URL pointing inside is refused at once; at
 * delivery it stays the real guard (a name can resolve elsewhere later).
 */
export async function vettedAddress(
  url: URL,
  policy: Pick<OutboundPolicy, 'allowLoopbackHost' | 'allowLocalhost'>,
): Promise<{ address: string; family: number }> {
  const host = hostOf(url);
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolved(host);
  if (addresses.length === 0)
    throw new OutboundRequestError(UNREACHABLE, `${url.host} resolves to no address`, 'unreachable');
  const loopbackAllowed =
    (policy.allowLoopbackHost !== undefined && url.host === policy.allowLoopbackHost) ||
    (policy.allowLocalhost === true && isLocalHost(host));
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !(loopbackAllowed && isLoopbackAddress(address))) {
      throw new OutboundRequestError(
        NOT_ALLOWED,
        `${url.host} resolves to ${address}, a private, loopback or link-local address`,
        'refused',
      );
    }
  }
  return addresses[0]!;
}

/** The sentence for a failed connection: a certificate refused, or the host not reached. */
function connectionFailure(error: NodeJS.ErrnoException): OutboundRequestError {
  const tls = /CERT|TLS|SSL/.test(error.code ?? '');
  return new OutboundRequestError(
    tls ? TLS_REFUSED : UNREACHABLE,
    `the request failed: ${error.message}`,
    tls ? 'failed' : 'unreachable',
  );
}

/**
 * One https request (http to localhost under the development setting) to a URL someone else chose: to an address checked before connecting (and
 * then connected to, so that a second DNS answer cannot swap it), never following a redirect
 * (the 3xx is the answer), its body read up to `maxBytes`, all of it within `timeoutMs`.
 */
export async function outboundRequest(
  url: URL,
  policy: OutboundPolicy,
  init: { readonly method: 'GET' | 'POST'; readonly headers: Record<string, string>; readonly body?: string },
): Promise<OutboundResponse> {
  if (!allowedScheme(url, policy)) throw new OutboundRequestError('the URL must be https');
  if (url.username || url.password) throw new OutboundRequestError('the URL must not carry credentials');
  const target = await vettedAddress(url, policy);
  return new Promise<OutboundResponse>((resolve, reject) => {
    const options = {
      method: init.method,
      headers: {
        ...init.headers,
        ...(init.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(init.body)) }),
      },
      // The vetted address, in the form asked for: a list when the socket tries several (`all`).
      lookup: ((_host, options, callback) =>
        options.all
          ? (callback as unknown as (error: null, all: readonly object[]) => void)(null, [target])
          : callback(null, target.address, target.family)) as LookupFunction,
      timeout: policy.timeoutMs,
    };
    const req = (
      url.protocol === 'http:'
        ? httpRequest(url, options)
        : httpsRequest(url, {
            ...options,
            servername: isIP(hostOf(url)) ? '' : url.hostname,
            ...(policy.ca ? { ca: policy.ca } : {}),
          })
    ).on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          if (policy.overflow === 'truncate') {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
            req.destroy();
          } else {
            req.destroy(new OutboundRequestError(`the answer is larger than ${policy.maxBytes} bytes`));
          }
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => reject(connectionFailure(error)));
    });
    const deadline = setTimeout(
      () => req.destroy(new OutboundRequestError(`no complete answer within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    );
    req.on('timeout', () => req.destroy(new OutboundRequestError(`no answer within ${policy.timeoutMs} ms`)));
    req.on('error', (error) => reject(error instanceof OutboundRequestError ? error : connectionFailure(error)));
    req.on('close', () => clearTimeout(deadline));
    req.end(init.body);
  });
}
