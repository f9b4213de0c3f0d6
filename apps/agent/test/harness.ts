import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCaller } from "@tidemark/api";
import { authenticateAgent, bearerToken, type Database, findSession, ingestBatch } from "@tidemark/db";
import { ingestBatchSchema } from "@tidemark/protocol";
import { createTestOrg } from "../../../packages/db/test/helpers.ts";
import { agentConfigResponse, agentStatusResponse } from "../../web/src/app/api/agent/handlers.ts";
import { AGENT_NODE_OPTIONS } from "../src/node-options.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The server side of the agent on loopback: the very config and status handlers the web app
 * routes to (with a short hold), and ingest as the web route does it (token → schema → ingestBatch).
 * It can be stopped and started again on the same port, like a restarting server.
 */
export class LoopbackServer {
  port = 0;
  private server: http.Server | null = null;

  constructor(private readonly db: Database) {}

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
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const request = new Request(`${this.url}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === "GET" ? undefined : Buffer.concat(chunks),
      signal: controller.signal,
    });
    let response: Response;
    try {
      const pathname = new URL(request.url).pathname;
      if (pathname === "/api/agent/config") response = await agentConfigResponse(this.db, request, { holdMs: 1500, checkEveryMs: 100 });
      else if (pathname === "/api/agent/status") response = await agentStatusResponse(this.db, request);
      else if (pathname === "/api/ingest") response = await this.ingest(request);
      else response = new Response("not found", { status: 404 });
    } catch (error) {
      response = Response.json({ error: String(error) }, { status: 500 });
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  private async ingest(request: Request): Promise<Response> {
    const agent = await authenticateAgent(this.db, bearerToken(request.headers.get("authorization")));
    if (!agent) return Response.json({ error: "unauthorized" }, { status: 401 });
    const parsed = ingestBatchSchema.safeParse(await request.json());
    if (!parsed.success) return Response.json({ error: "bad batch" }, { status: 400 });
    return Response.json(await ingestBatch(this.db, { organizationId: agent.organizationId, agentId: agent.agentId, batch: parsed.data }));
  }
}

/** A real agent process (tsx apps/agent/src/main.ts), with its /health port read from its log. */
export class AgentProcess {
  private child: ChildProcess | null = null;
  port = 0;
  log = "";

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<void> {
    const child = spawn(
      path.join(REPO_ROOT, "node_modules", ".bin", "tsx"),
      [...AGENT_NODE_OPTIONS, path.join(REPO_ROOT, "apps", "agent", "src", "main.ts")],
      {
        env: { ...process.env, AGENT_PORT: "0", AGENT_FLUSH_MS: "200", ...this.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.child = child;
    this.port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`agent did not start:\n${this.log}`)), 30_000);
      const onData = (chunk: Buffer) => {
        this.log += chunk.toString();
        const match = /"port":(\d+)/.exec(this.log);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) => reject(new Error(`agent exited with ${code}:\n${this.log}`)));
    });
  }

  async health(): Promise<{
    configVersion: number | null;
    configHash: string | null;
    checks: number;
    results: { sent: number; spooled: number; rejected: number; dropped: number };
    inMemory: number;
    spool: { batches: number };
  }> {
    return (await fetch(`http://127.0.0.1:${this.port}/health`)).json() as never;
  }

  async metrics(): Promise<string> {
    return (await fetch(`http://127.0.0.1:${this.port}/metrics`)).text();
  }

  /** SIGTERM, as an operator or systemd stops it; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    return new Promise((resolve) => {
      child.once("exit", (code) => resolve(code));
      child.kill("SIGTERM");
    });
  }
}

/** A caller signed in as a member of a fresh organisation (tRPC, as the dashboard calls it). */
export async function signedInCaller(db: Database, role: "editor" | "admin" = "admin") {
  const { organization, user } = await createTestOrg(db, role);
  const tokenHash = `test-${crypto.randomUUID()}`;
  await db.prisma.session.create({
    data: { tokenHash, userId: user.id, activeOrganizationId: organization.id, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  const session = await findSession(db, tokenHash);
  return { organization, user, caller: createCaller({ db, session, sameOrigin: true }) };
}

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
