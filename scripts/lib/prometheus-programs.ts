import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";

/**
 * Debian's Prometheus, Alertmanager and node_exporter as the tests run them: each on a free
 * loopback port with its own data directory, never the system services the packages install.
 */

export const PROMETHEUS_BIN = "/usr/bin/prometheus";
export const PROMTOOL_BIN = "/usr/bin/promtool";
export const ALERTMANAGER_BIN = "/usr/bin/prometheus-alertmanager";
export const NODE_EXPORTER_BIN = "/usr/bin/prometheus-node-exporter";

export class Program {
  private child: ChildProcess | null = null;
  log = "";
  readonly dir: string;

  constructor(
    readonly name: string,
    readonly port: number,
  ) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), `tidemark-${name}-`));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  file(name: string, text: string): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, text);
    return file;
  }

  /** Starts it and waits until `readyPath` answers 200. */
  async start(bin: string, args: string[], readyPath: string): Promise<void> {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], cwd: this.dir });
    this.child = child;
    child.stdout?.on("data", (c: Buffer) => (this.log += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (this.log += c.toString()));
    const end = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}:\n${this.log}`);
      const ok = await fetch(`${this.url}${readyPath}`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (Date.now() > end) throw new Error(`${this.name} did not become ready:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startNodeExporter(): Promise<Program> {
  const program = new Program("node-exporter", await freePort());
  // A few cheap collectors: the test needs real samples, not all of them.
  await program.start(
    NODE_EXPORTER_BIN,
    [
      `--web.listen-address=127.0.0.1:${program.port}`,
      "--collector.disable-defaults",
      "--collector.loadavg",
      "--collector.meminfo",
      "--collector.time",
    ],
    "/metrics",
  );
  return program;
}

export async function startPrometheus(config: string): Promise<Program> {
  const program = new Program("prometheus", await freePort());
  const file = program.file("prometheus.yml", config);
  await program.start(
    PROMETHEUS_BIN,
    [
      `--config.file=${file}`,
      `--storage.tsdb.path=${path.join(program.dir, "data")}`,
      `--web.listen-address=127.0.0.1:${program.port}`,
      "--storage.tsdb.retention.time=1h",
    ],
    "/-/ready",
  );
  return program;
}

export async function startAlertmanager(config: string): Promise<Program> {
  const program = new Program("alertmanager", await freePort());
  const file = program.file("alertmanager.yml", config);
  await program.start(
    ALERTMANAGER_BIN,
    [
      `--config.file=${file}`,
      `--storage.path=${path.join(program.dir, "data")}`,
      `--web.listen-address=127.0.0.1:${program.port}`,
      // No gossip: a single instance, and no port of the cluster's to collide on.
      "--cluster.listen-address=",
    ],
    "/-/ready",
  );
  return program;
}

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
    let response: Response;
    try {
      response = await this.route(
        new Request(`${this.url}${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
        }),
      );
    } catch (error) {
      response = Response.json({ error: String(error) }, { status: 500 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }
}
