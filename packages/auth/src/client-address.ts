import ipaddr from "ipaddr.js";

/**
 * Who is asking, for per-address limits. The TCP peer is the client, unless it is one of the
 * reverse proxies the installation trusts (TIDEMARK_TRUSTED_PROXIES, addresses or CIDR ranges):
 * then X-Forwarded-For is read from the right, skipping trusted proxies, and the first other
 * address is the client. A forwarded header from anyone else is ignored, so a client cannot
 * choose its own address.
 *
 * The peer arrives in PEER_HEADER, which the web server sets from the socket on every request
 * (apps/web/src/instrumentation.ts), overwriting whatever a client sent.
 */

export const PEER_HEADER = "x-tidemark-peer";
export const TRUSTED_PROXIES_VARIABLE = "TIDEMARK_TRUSTED_PROXIES";

export type TrustedProxies = [ipaddr.IPv4 | ipaddr.IPv6, number][];

export function parseTrustedProxies(list: string | undefined): TrustedProxies {
  return (list ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes("/")) return ipaddr.parseCIDR(entry);
        const address = ipaddr.process(entry);
        return [address, address.kind() === "ipv4" ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
      } catch {
        throw new Error(`${TRUSTED_PROXIES_VARIABLE}: ${JSON.stringify(entry)} is not an address or CIDR range`);
      }
    });
}

function normalised(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(address.trim().replace(/^\[|\]$/g, ""));
  } catch {
    return null;
  }
}

function isTrusted(address: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedProxies): boolean {
  return trusted.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** The client's address as a string ("unknown" when the server did not say who the peer is). */
export function clientAddress(headers: Headers, trusted: TrustedProxies): string {
  const peer = normalised(headers.get(PEER_HEADER) ?? "");
  if (!peer) return "unknown";
  if (!isTrusted(peer, trusted)) return peer.toString();
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").reverse();
  for (const hop of hops) {
    const address = normalised(hop);
    if (!address) break;
    if (!isTrusted(address, trusted)) return address.toString();
  }
  return peer.toString();
}
