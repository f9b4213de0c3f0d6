import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { type DestinationPolicy, refusedAddress, refusedUrl } from "./destinations.ts";

/** The destination is not allowed by the policy; retrying changes nothing. */
export class RefusedDestinationError extends Error {
  override name = "RefusedDestinationError";
}

export interface OutboundRequest {
  method: "POST" | "PUT" | "GET";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * Resolves names itself and refuses the answer when any address is not allowed. The socket then
 * connects to exactly the addresses checked here (no second lookup that a rebinding DNS server
 * could answer differently).
 */
function guardedLookup(policy: DestinationPolicy): LookupFunction {
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

/**
 * One HTTP(S) request to a user-chosen URL, only to addresses the policy allows: IP literals and
 * local names are refused before anything is sent, names are resolved and every address checked,
 * and the address actually connected to is checked again. Redirects are not followed (a receiver
 * could point at an internal address). Resolves with the status; throws RefusedDestinationError
 * when refused, other errors when the request failed.
 */
export function outboundRequest(url: string, request: OutboundRequest, policy: DestinationPolicy): Promise<{ status: number }> {
  const refused = refusedUrl(url, policy);
  if (refused) return Promise.reject(new RefusedDestinationError(refused));
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: request.method,
      headers: request.headers,
      lookup: guardedLookup(policy),
      agent: false,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    req.on("socket", (socket) => {
      socket.once("connect", () => {
        const connected = socket.remoteAddress ? refusedAddress(socket.remoteAddress, policy) : "the connected address is unknown";
        if (connected) req.destroy(new RefusedDestinationError(connected));
      });
    });
    req.on("error", (error) => reject(error.name === "AbortError" ? new Error(`no answer within ${request.timeoutMs} ms`) : error));
    req.on("response", (response) => {
      // The body is not used; reading it ends the exchange cleanly.
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      response.on("error", reject);
    });
    req.end(request.body);
  });
}
