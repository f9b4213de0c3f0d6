import dns from "node:dns/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destinationPolicy, PUBLIC_ONLY, refusedAddress } from "../src/destinations.ts";
import { outboundRequest, RefusedDestinationError } from "../src/outbound-request.ts";

/** A receiver on loopback stands for an internal service a webhook must not reach. */
let server: http.Server;
let port: number;
let received = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    received++;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = { method: "POST" as const, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 5000 };

describe("requests to user-chosen URLs", () => {
  it.each([`http://127.0.0.1:PORT/hook`, `http://localhost:PORT/hook`, `http://[::ffff:127.0.0.1]:PORT/hook`])(
    "refuses %s by default, sending nothing",
    async (url) => {
      const before = received;
      await expect(outboundRequest(url.replace("PORT", String(port)), post, PUBLIC_ONLY)).rejects.toBeInstanceOf(RefusedDestinationError);
      expect(received).toBe(before);
    },
  );

  it("resolves names itself and refuses one that points inside (the connection goes to the address checked)", async () => {
    // This machine's own name resolves to a loopback or private address (Debian: /etc/hosts).
    const own = await dns.lookup(os.hostname());
    if (refusedAddress(own.address, PUBLIC_ONLY) === null) return; // a public host name: nothing to show here
    const error = await outboundRequest(`http://${os.hostname()}:${port}/hook`, post, PUBLIC_ONLY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedDestinationError);
    expect((error as Error).message).toMatch(new RegExp(`${os.hostname()} resolves to`));
    expect(received).toBe(0);
  });

  it("reaches a range an administrator allowed", async () => {
    const response = await outboundRequest(`http://127.0.0.1:${port}/hook`, post, destinationPolicy("127.0.0.0/8"));
    expect(response.status).toBe(204);
    expect(received).toBe(1);
  });
});
