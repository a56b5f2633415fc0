export { isLoopbackAddress, isPublicAddress } from './address-policy.js';
export {
  outboundRequest,
  OutboundRequestError,
  type OutboundPolicy,
  type OutboundResponse,
} from './outbound-request.js';
