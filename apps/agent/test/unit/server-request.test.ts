import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serverRequest } from "../../src/server-request.ts";

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("serverRequest", () => {
  it("sends the token and the JSON body, and answers with the status and the text", async () => {
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => res.writeHead(201).end(`${req.method} ${req.headers.authorization} ${req.headers["content-type"]} ${body}`));
    });
    const answer = await serverRequest(`${url}/x`, { method: "POST", token: "tm_agent_t", json: '{"é":1}', timeoutMs: 5000 });
    expect(answer).toEqual({ status: 201, ok: true, text: 'POST Bearer tm_agent_t application/json {"é":1}' });
    expect(await serverRequest(`${url}/x`, { method: "GET", token: "t", timeoutMs: 5000 })).toMatchObject({
      ok: true,
      text: "GET Bearer t undefined ",
    });
  });

  it("gives up on a server that does not answer in time", async () => {
    const url = await serve(() => undefined);
    await expect(serverRequest(url, { method: "GET", token: "t", timeoutMs: 200 })).rejects.toThrow("no answer within 0.2 s");
  });

  it("fails when the connection drops in the middle of the answer", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" }).write("partial");
      setTimeout(() => res.destroy(), 50);
    });
    await expect(serverRequest(url, { method: "GET", token: "t", timeoutMs: 5000 })).rejects.toThrow();
  });

  it("stops when its signal aborts", async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(serverRequest(url, { method: "GET", token: "t", timeoutMs: 5000, signal: controller.signal })).rejects.toThrow(/aborted/);
  });
});
