import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Web-route handlers (Request → Response) served on loopback, as Next serves them. It can be
 * stopped and started again on the same port, like a restarting Tidemark.
 */
export class RouteServer {
  port = 0;
  private server: http.Server | null = null;

  constructor(private readonly route: (request: Request) => Promise<Response>) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // A client that goes away aborts the request, as in Next (long polls end).
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    let response: Response;
    try {
      response = await this.route(
        new Request(`${this.url}${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
          signal: controller.signal,
        }),
      );
    } catch (error) {
      response = Response.json({ error: String(error) }, { status: 500 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }
}

/** Polls `probe` until it returns something truthy; throws after `timeoutMs` with the last error. */
export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
