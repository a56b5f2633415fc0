export { isLoopbackAddress, isPublicAddress } from './address-policy.js';
export {
  allowedScheme,
  NOT_ALLOWED,
  outboundRequest,
  OutboundRequestError,
  UNREACHABLE,
  vettedAddress,
  type OutboundPolicy,
  type OutboundResponse,
} from './outbound-request.js';
