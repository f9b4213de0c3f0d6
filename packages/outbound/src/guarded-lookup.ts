import dns from "node:dns";
import type { LookupFunction } from "node:net";
import { type DestinationPolicy, refusedAddress } from "./destinations.ts";

/** The destination is not allowed by the policy; retrying changes nothing. */
export class RefusedDestinationError extends Error {
  override name = "RefusedDestinationError";
}

/**
 * A `lookup` for node:net/http that resolves names itself and refuses the answer when any address
 * is not allowed. The socket then connects to exactly the addresses checked here (no second lookup
 * that a rebinding DNS server could answer differently).
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      for (const { address } of addresses) {
        const refused = refusedAddress(address, policy);
        if (refused) return callback(new RefusedDestinationError(`${hostname} resolves to ${refused}`), "", 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new Error(`${hostname} has no address`), "", 4);
      callback(null, first.address, first.family);
    });
  };
}

/** Why the socket's peer may not be talked to, or null: the address actually connected to, checked again. */
export function refusedPeer(remoteAddress: string | undefined, policy: DestinationPolicy): string | null {
  return remoteAddress ? refusedAddress(remoteAddress, policy) : "the connected address is unknown";
}
