export {
  ALLOWED_RANGES_VARIABLE,
  type DestinationPolicy,
  destinationPolicy,
  destinationPolicyFromEnv,
  PUBLIC_ONLY,
  refusedAddress,
  refusedUrl,
} from "./destinations.ts";
export { RefusedDestinationError } from "./guarded-lookup.ts";
export { type OutboundRequest, outboundRequest } from "./outbound-request.ts";
export { outboundSocket, refusedServer } from "./outbound-socket.ts";
