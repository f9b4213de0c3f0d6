import { describe, expect, it } from "vitest";
import { clientAddress, PEER_HEADER, parseTrustedProxies } from "../src/client-address.ts";

const from = (peer: string | null, forwarded?: string) =>
  new Headers({ ...(peer ? { [PEER_HEADER]: peer } : {}), ...(forwarded ? { "x-forwarded-for": forwarded } : {}) });

describe("the client's address", () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies("10.0.0.0/8, 192.0.2.1");

  it.each([
    ["a direct client: the peer, whatever it forwards", none, from("203.0.113.7", "1.2.3.4"), "203.0.113.7"],
    ["no trusted proxy configured: X-Forwarded-For ignored", none, from("10.0.0.5", "198.51.100.9"), "10.0.0.5"],
    ["through a trusted proxy: the forwarded client", proxies, from("10.0.0.5", "198.51.100.9"), "198.51.100.9"],
    ["a forged hop before the real one is skipped", proxies, from("10.0.0.5", "1.2.3.4, 198.51.100.9"), "198.51.100.9"],
    ["through two trusted proxies", proxies, from("192.0.2.1", "198.51.100.9, 10.1.1.1"), "198.51.100.9"],
    ["an IPv4-mapped peer", none, from("::ffff:203.0.113.7"), "203.0.113.7"],
    ["an untrusted peer claiming to forward", proxies, from("203.0.113.50", "198.51.100.9"), "203.0.113.50"],
    ["no peer known", proxies, from(null, "198.51.100.9"), "unknown"],
  ])("%s", (_, trusted, headers, expected) => {
    expect(clientAddress(headers, trusted)).toBe(expected);
  });

  it("refuses a malformed proxy list", () => {
    expect(() => parseTrustedProxies("10.0.0.0/8, nonsense")).toThrow(/TIDEMARK_TRUSTED_PROXIES: "nonsense"/);
  });
});
