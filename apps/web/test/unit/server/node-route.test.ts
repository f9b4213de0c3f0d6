import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { isDirectApiCall, isHealthCheck, MAX_BODY_BYTES, serveRoute } from "../../../src/server/node-route.ts";

/** The API's direct path (src/main.ts) as a client meets it: a real HTTP server around serveRoute. */

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

async function serve(route: (request: Request) => Promise<Response>): Promise<string> {
  server = http.createServer((req, res) => void serveRoute(route, req, res));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

/** A raw request, so that the test sees exactly what went over the wire (fetch would decompress). */
function request(url: string, options: http.RequestOptions & { body?: Buffer | string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("serveRoute", () => {
  it("hands the route the method, path, query, headers and body, and returns its status, headers and cookies", async () => {
    let seen: { method: string; url: string; header: string | null; body: string } | null = null;
    const base = await serve(async (req) => {
      seen = { method: req.method, url: req.url, header: req.headers.get("x-test"), body: await req.text() };
      const headers = new Headers({ "content-type": "application/json", "x-answer": "yes" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return new Response('{"ok":true}', { status: 201, headers });
    });
    const answer = await request(`${base}/api/trpc/x.y?batch=1`, {
      method: "POST",
      headers: { "x-test": "t", host: "dash.example" },
      body: "hello",
    });
    expect(seen).toEqual({ method: "POST", url: "http://dash.example/api/trpc/x.y?batch=1", header: "t", body: "hello" });
    expect(answer.status).toBe(201);
    expect(answer.headers["x-answer"]).toBe("yes");
    expect(answer.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(answer.body.toString()).toBe('{"ok":true}');
  });

  it("gives every answer the API's security headers, and Strict-Transport-Security behind an https proxy", async () => {
    const base = await serve(async () => new Response("{}"));
    const plain = await request(`${base}/api/trpc/x`);
    expect(plain.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(plain.headers["x-frame-options"]).toBe("DENY");
    expect(plain.headers["x-content-type-options"]).toBe("nosniff");
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const proxied = await request(`${base}/api/trpc/x`, { headers: { "x-forwarded-proto": "https" } });
    expect(proxied.headers["strict-transport-security"]).toContain("max-age=");
  });

  it.each([
    ["accepts gzip, large answer", "gzip, deflate, br", 5_000, "gzip"],
    ["accepts gzip, small answer", "gzip", 100, undefined],
    ["no accept-encoding", undefined, 5_000, undefined],
  ])("compresses as Next.js does: %s", async (_case, acceptEncoding, size, encoding) => {
    const text = "x".repeat(size);
    const base = await serve(async () => new Response(text, { headers: { vary: "trpc-accept" } }));
    const answer = await request(`${base}/api/trpc/x`, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
    expect(answer.headers["content-encoding"]).toBe(encoding);
    expect(answer.headers.vary).toBe("trpc-accept, Accept-Encoding");
    expect((encoding ? zlib.gunzipSync(answer.body) : answer.body).toString()).toBe(text);
  });

  it("refuses a body over the limit with 413 without calling the route", async () => {
    let called = false;
    const base = await serve(async () => {
      called = true;
      return new Response("{}");
    });
    const answer = await request(`${base}/api/trpc/x`, { method: "POST", body: Buffer.alloc(MAX_BODY_BYTES + 1) });
    expect(answer.status).toBe(413);
    expect(called).toBe(false);
  });

  it("answers 400, not 500, for a Host header no URL can hold", async () => {
    const base = await serve(async () => new Response("{}"));
    const answer = await request(`${base}/api/trpc/x`, { headers: { host: "bad host:99999" } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body.toString()).error).toMatch(/host/);
  });
});

describe("isDirectApiCall", () => {
  it.each([
    ["/api/trpc/dashboard.items?input=%7B%7D", true],
    ["/api/trpc/a,b?batch=1", true],
    ["/api/trpc", false],
    ["/api/trpcx/y", false],
    ["/api/health", false],
    ["/", false],
    [undefined, false],
    ["/api/trpc/%E0%A4%A", false],
    ["/api/trpc/ok?input=%E0%A4%A", true],
  ])("%s → %s", (url, direct) => {
    expect(isDirectApiCall(url)).toBe(direct);
  });
});

describe("isHealthCheck", () => {
  it.each([
    ["/api/health", true],
    ["/api/health?probe=docker", true],
    ["/api/healthz", false],
    ["/api/health/x", false],
    ["/api/trpc/health", false],
    ["/", false],
    [undefined, false],
  ])("%s → %s", (url, direct) => {
    expect(isHealthCheck(url)).toBe(direct);
  });
});
