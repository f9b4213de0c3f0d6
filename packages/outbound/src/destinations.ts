import ipaddr from "ipaddr.js";

/**
 * Which network addresses Tidemark may send a request to on a user's behalf (webhooks, any
 * notification receiver). By default only public unicast addresses: a URL chosen by an editor
 * must not reach the server's own loopback services, the private network behind it, or a
 * cloud's metadata endpoint (169.254.169.254). An administrator of the installation allows named
 * ranges (TIDEMARK_OUTBOUND_ALLOWED_RANGES, e.g. `10.20.0.0/16,fd00::/8`) for receivers that
 * legitimately live there.
 */

export interface DestinationPolicy {
  /** CIDR ranges allowed although not public. */
  allowedRanges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const PUBLIC_ONLY: DestinationPolicy = { allowedRanges: [] };

/** The environment variable an administrator lists allowed ranges in. */
export const ALLOWED_RANGES_VARIABLE = "TIDEMARK_OUTBOUND_ALLOWED_RANGES";

/** A policy from a comma-separated CIDR list (a single address is a /32 or /128); throws naming a bad entry. */
export function destinationPolicy(allowedRanges: string | undefined): DestinationPolicy {
  const ranges: DestinationPolicy["allowedRanges"] = [];
  for (const entry of (allowedRanges ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      ranges.push(entry.includes("/") ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128]);
    } catch {
      throw new Error(`${ALLOWED_RANGES_VARIABLE}: ${JSON.stringify(entry)} is not an address or CIDR range (e.g. 10.20.0.0/16)`);
    }
  }
  return { allowedRanges: ranges };
}

/** The installation's policy, from its environment. */
export function destinationPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): DestinationPolicy {
  return destinationPolicy(env[ALLOWED_RANGES_VARIABLE]);
}

/** ipaddr.js range names, said for people. */
const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private-network address",
  linkLocal: "a link-local address (cloud metadata lives there)",
  uniqueLocal: "a private-network (unique local) address",
  unspecified: "the unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  carrierGradeNat: "a carrier-grade NAT address",
  reserved: "a reserved address",
  benchmarking: "a benchmarking address",
  amt: "a reserved (AMT) address",
  as112: "a reserved (AS112) address",
  deprecated: "a deprecated address",
  orchid2: "a reserved (ORCHID) address",
  droneRemoteIdProtocolEntityTags: "a reserved address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "a translated address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  discard: "a discard-only address",
};

/** Why Tidemark may not connect to `address` (an IP literal), or null when it may. */
export function refusedAddress(address: string, policy: DestinationPolicy): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  } catch {
    return `${address} is not an IP address`;
  }
  if (policy.allowedRanges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
  const range = parsed.range();
  if (range === "unicast") return null;
  return `${parsed.toString()} is ${RANGE_NAMES[range] ?? `in the ${range} range`}: not allowed as a destination (an administrator can allow ranges with ${ALLOWED_RANGES_VARIABLE})`;
}

/** Host names that always mean this machine. */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)\.?$|\.localhost\.?$/i;

/**
 * Why a URL may not be a destination, judged from the URL alone (at save time): an IP literal or a
 * local name that the policy refuses. Names are resolved, and every address checked, when a request
 * is actually made (outbound-request.ts).
 */
export function refusedUrl(url: string, policy: DestinationPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a valid URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "only http and https destinations are allowed";
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) return refusedAddress(host, policy);
  if (LOCAL_NAMES.test(host))
    return refusedAddress("127.0.0.1", policy) === null ? null : `${host} is this machine: not allowed as a destination`;
  return null;
}
