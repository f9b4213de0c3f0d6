import dns from "node:dns/promises";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationPolicy, PUBLIC_ONLY, refusedAddress } from "../src/destinations.ts";
import { RefusedDestinationError } from "../src/guarded-lookup.ts";
import { outboundSocket, refusedServer } from "../src/outbound-socket.ts";

/** A TCP server on loopback stands for an internal mail server an email receiver must not reach. */
let server: net.Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = net.createServer((socket) => {
    connections++;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** This machine's own name resolves to a loopback or private address (Debian: /etc/hosts); null when public. */
async function internalHostName(): Promise<string | null> {
  const own = await dns.lookup(os.hostname());
  return refusedAddress(own.address, PUBLIC_ONLY) === null ? null : os.hostname();
}

describe("SMTP servers and other TCP destinations", () => {
  it.each(["smtp://127.0.0.1:25", "smtps://user:pw@localhost", "smtp://[::1]:587", "smtp://169.254.169.254"])(
    "refuses %s at save",
    async (url) => {
      expect(await refusedServer(url, PUBLIC_ONLY)).toMatch(/not allowed|this machine/);
    },
  );

  it("resolves a name at save and refuses one that points inside", async () => {
    const name = await internalHostName();
    if (!name) return; // a public host name: nothing to show here
    expect(await refusedServer(`smtp://${name}:25`, PUBLIC_ONLY)).toMatch(new RegExp(`${name} resolves to .*not allowed`));
    expect(await refusedServer(`smtp://${name}:25`, destinationPolicy("127.0.0.0/8"))).toBeNull();
  });

  it("accepts a name that does not resolve now (checked again at each connection)", async () => {
    expect(await refusedServer("smtp://mail.invalid:25", PUBLIC_ONLY)).toBeNull();
  });

  it("connects only where the policy allows, by name too, and says why not", async () => {
    const name = await internalHostName();
    const before = connections;
    await expect(outboundSocket("127.0.0.1", port, PUBLIC_ONLY, 5000)).rejects.toBeInstanceOf(RefusedDestinationError);
    if (name) await expect(outboundSocket(name, port, PUBLIC_ONLY, 5000)).rejects.toThrow(/resolves to .*loopback/);
    expect(connections).toBe(before);
    const socket = await outboundSocket(name ?? "127.0.0.1", port, destinationPolicy("127.0.0.0/8"), 5000);
    expect(socket.remoteAddress).toBe("127.0.0.1");
    socket.destroy();
  });
});
