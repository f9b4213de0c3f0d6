import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** /metrics (Prometheus text) and /health (JSON) on a small local port. */
export async function startStatusServer(opts: {
  host: string;
  port: number;
  registry: Registry;
  health: () => unknown;
}): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://agent");
    if (request.method !== "GET") {
      response.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (url.pathname === "/health") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(opts.health()));
      return;
    }
    if (url.pathname === "/metrics") {
      opts.registry.metrics().then(
        (text) => response.writeHead(200, { "content-type": opts.registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("try /health or /metrics\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
