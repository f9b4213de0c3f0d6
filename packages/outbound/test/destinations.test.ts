import { describe, expect, it } from "vitest";
import { destinationPolicy, PUBLIC_ONLY, refusedAddress, refusedUrl } from "../src/destinations.ts";

describe("which addresses Tidemark may send requests to", () => {
  it.each([
    ["127.0.0.1", /loopback/],
    ["127.8.9.10", /loopback/],
    ["::1", /loopback/],
    ["10.1.2.3", /private-network/],
    ["172.16.0.1", /private-network/],
    ["192.168.1.1", /private-network/],
    ["169.254.169.254", /link-local.*metadata/],
    ["fe80::1", /link-local/],
    ["fd00::1", /unique local/],
    ["0.0.0.0", /unspecified/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["224.0.0.1", /multicast/],
    ["::ffff:127.0.0.1", /loopback/],
    ["::ffff:169.254.169.254", /link-local/],
  ])("refuses %s", (address, reason) => {
    expect(refusedAddress(address, PUBLIC_ONLY)).toMatch(reason);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"])("allows the public address %s", (address) => {
    expect(refusedAddress(address, PUBLIC_ONLY)).toBeNull();
  });

  it("allows the ranges an administrator names, and only those", () => {
    const policy = destinationPolicy("10.20.0.0/16, 127.0.0.1, fd00::/8");
    expect(refusedAddress("10.20.3.4", policy)).toBeNull();
    expect(refusedAddress("10.21.0.1", policy)).toMatch(/private/);
    expect(refusedAddress("127.0.0.1", policy)).toBeNull();
    expect(refusedAddress("127.0.0.2", policy)).toMatch(/loopback/);
    expect(refusedAddress("fd12::1", policy)).toBeNull();
    expect(refusedAddress("169.254.169.254", policy)).toMatch(/link-local/);
    expect(() => destinationPolicy("10.0.0.0/33")).toThrow(/not an address or CIDR range/);
  });

  it.each([
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://[::1]:8080/", /loopback/],
    ["http://localhost:3000/hook", /this machine/],
    ["http://api.localhost/", /this machine/],
    ["http://2130706433/", /loopback/],
    ["ftp://example.com/", /only http and https/],
  ])("refuses the URL %s", (url, reason) => {
    expect(refusedUrl(url, PUBLIC_ONLY)).toMatch(reason);
  });

  it("leaves names to be checked when they are resolved", () => {
    expect(refusedUrl("https://hooks.example.com/x?token=1", PUBLIC_ONLY)).toBeNull();
  });
});
