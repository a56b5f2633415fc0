import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './address-policy.js';

/**
 * How the service reaches a URL someone else chose (a client metadata document, a webhook
 * endpoint): https to a public address only, bounded in time and size.
 */
export interface OutboundPolicy {
  /** One `host:port` whose loopback addresses may be reached: for tests, unset in production. */
  readonly allowLoopbackHost?: string;
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

/** Why the request was not sent or not answered; the message is one sentence for the person who chose the URL. */
export class OutboundRequestError extends Error {}

async function resolved(host: string): Promise<{ address: string; family: number }[]> {
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new OutboundRequestError(
      `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`,
    );
  }
}

/** The one address the connection may use: every address of the name must be allowed. */
async function vettedAddress(url: URL, policy: OutboundPolicy): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolved(host);
  if (addresses.length === 0) throw new OutboundRequestError(`${url.host} does not resolve`);
  const loopbackAllowed = policy.allowLoopbackHost !== undefined && url.host === policy.allowLoopbackHost;
  for (const { address } of addresses) {
    if (!isPublicAddress(address) && !(loopbackAllowed && isLoopbackAddress(address))) {
      throw new OutboundRequestError(`${url.host} resolves to ${address}, a private, loopback or link-local address`);
    }
  }
  return addresses[0]!;
}

/**
 * One https request to a URL someone else chose: to an address checked before connecting (and
 * then connected to, so that a second DNS answer cannot swap it), never following a redirect
 * (the 3xx is the answer), its body read up to `maxBytes`, all of it within `timeoutMs`.
 */
export async function outboundRequest(
  url: URL,
  policy: OutboundPolicy,
  init: { readonly method: 'GET' | 'POST'; readonly headers: Record<string, string>; readonly body?: string },
): Promise<OutboundResponse> {
  if (url.protocol !== 'https:') throw new OutboundRequestError('the URL must be https');
  if (url.username || url.password) throw new OutboundRequestError('the URL must not carry credentials');
  const target = await vettedAddress(url, policy);
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method,
        headers: {
          ...init.headers,
          ...(init.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(init.body)) }),
        },
        lookup: (_host, _options, callback) => callback(null, target.address, target.family),
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? '' : url.hostname,
        ...(policy.ca ? { ca: policy.ca } : {}),
        timeout: policy.timeoutMs,
      },
      (res) => {
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
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new OutboundRequestError(`no complete answer within ${policy.timeoutMs} ms`)),
      policy.timeoutMs,
    );
    req.on('timeout', () => req.destroy(new OutboundRequestError(`no answer within ${policy.timeoutMs} ms`)));
    req.on('error', (error) =>
      reject(
        error instanceof OutboundRequestError
          ? error
          : new OutboundRequestError(`the request failed: ${error.message}`),
      ),
    );
    req.on('close', () => clearTimeout(deadline));
    req.end(init.body);
  });
}
