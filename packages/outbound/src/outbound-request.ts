import http from "node:http";
import https from "node:https";
import { type DestinationPolicy, refusedUrl } from "./destinations.ts";
import { guardedLookup, RefusedDestinationError, refusedPeer } from "./guarded-lookup.ts";

export { RefusedDestinationError };

export interface OutboundRequest {
  method: "POST" | "PUT" | "GET";
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
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
        const connected = refusedPeer(socket.remoteAddress, policy);
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
