import type { WebhookEndpoint, WebhookStore } from '../control/types.js';
import type { NewEndpoint } from './actions.js';
import { InvalidInputError } from '../errors.js';
import { allowedScheme, OutboundRequestError, vettedAddress, type OutboundPolicy } from '../net/index.js';

export interface EndpointRules {
  readonly store: WebhookStore;
  readonly policy: Pick<OutboundPolicy, 'allowLoopbackHost' | 'allowLocalhost'>;
  readonly maxEndpoints: number;
  /** Where a refusal's detail goes (the server log): the admin is told the rule only. */
  readonly refused: (detail: string) => void;
}

/**
 * Adds an endpoint after checking where it points: a host that is an address in a refused
 * range, or a name that resolves into one now, is refused at once with the rule broken. A
 * name that does not resolve yet is accepted (its DNS may come later); every delivery checks
 * again, which stays the guard against a name that resolves elsewhere later.
 */
export async function addEndpoint(
  rules: EndpointRules,
  input: NewEndpoint,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  let url: URL | undefined;
  try {
    url = new URL(input.url.trim());
  } catch {
    // The store says what is wrong with it.
  }
  if (url && allowedScheme(url, rules.policy) && !url.username && !url.password) {
    try {
      await vettedAddress(url, rules.policy);
    } catch (error) {
      if (!(error instanceof OutboundRequestError)) throw error;
      if (error.reason === 'refused') {
        rules.refused(error.detail);
        throw new InvalidInputError(error.message);
      }
    }
  }
  return rules.store.add({
    ...input,
    maxEndpoints: rules.maxEndpoints,
    allowHttp: url !== undefined && url.protocol === 'http:' && allowedScheme(url, rules.policy),
  });
}
