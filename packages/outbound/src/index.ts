export {
  ALLOWED_RANGES_VARIABLE,
  type DestinationPolicy,
  destinationPolicy,
  destinationPolicyFromEnv,
  PUBLIC_ONLY,
  refusedAddress,
  refusedUrl,
} from "./destinations.ts";
export { type OutboundRequest, outboundRequest, RefusedDestinationError } from "./outbound-request.ts";
