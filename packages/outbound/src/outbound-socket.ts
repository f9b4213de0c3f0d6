import dns from "node:dns";
import net from "node:net";
import { type DestinationPolicy, refusedAddress, refusedUrl } from "./destinations.ts";
import { guardedLookup, RefusedDestinationError, refusedPeer } from "./guarded-lookup.ts";

/**
 * TCP destinations that are not HTTP (an email receiver's SMTP server), held to the same rule as
 * HTTP requests: only addresses the policy allows, names resolved and every address checked, and
 * the address actually connected to checked again.
 */

/** The host of an `smtp://…` or `smtps://…` URL judged as an http URL would be (IP literals, local names). */
function asHttp(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:/i, "http:");
}

/**
 * Why the server of `url` may not be connected to, resolving its name now (at save time), or null.
 * A name that does not resolve within `timeoutMs` (or not at all) is not refused here: DNS may be
 * down for a moment, and every connection checks again.
 */
export async function refusedServer(url: string, policy: DestinationPolicy, timeoutMs = 3000): Promise<string | null> {
  const literal = refusedUrl(asHttp(url), policy);
  if (literal) return literal;
  const host = new URL(asHttp(url)).hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) return null;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true }).catch(() => []),
    new Promise<dns.LookupAddress[]>((resolve) => setTimeout(() => resolve([]), timeoutMs).unref()),
  ]);
  for (const { address } of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) return `${host} resolves to ${refused}`;
  }
  return null;
}

/**
 * A TCP connection to `host:port` once the policy allows it (checked on the name's addresses and
 * on the connected socket). Rejects with RefusedDestinationError when refused, other errors when
 * the connection failed.
 */
export function outboundSocket(host: string, port: number, policy: DestinationPolicy, timeoutMs: number): Promise<net.Socket> {
  const refused = refusedUrl(`http://${net.isIPv6(host) ? `[${host}]` : host}/`, policy);
  if (refused) return Promise.reject(new RefusedDestinationError(refused));
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, lookup: guardedLookup(policy), timeout: timeoutMs });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once("timeout", () => fail(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`)));
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.removeListener("error", fail);
      socket.setTimeout(0);
      const peer = refusedPeer(socket.remoteAddress, policy);
      if (peer) return fail(new RefusedDestinationError(peer));
      resolve(socket);
    });
  });
}
