import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCaller } from "@tidemark/api";
import { agentConfigResponse, agentStatusResponse } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { authenticateAgent, bearerToken } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { findSession } from "@tidemark/db/organizations";
import { createTestOrg, testPrisma } from "@tidemark/db/testing";
import { ingestBatchSchema } from "@tidemark/protocol";
import { RouteServer } from "../../../scripts/lib/route-server.ts";
import { AGENT_NODE_OPTIONS } from "../src/node-options.ts";

export { waitFor } from "../../../scripts/lib/route-server.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The server side of the agent on loopback: the very config and status handlers the web app
 * routes to (with a short hold), and ingest as the web route does it (token → schema → ingestBatch).
 * It can be stopped and started again on the same port, like a restarting server.
 */
export class LoopbackServer extends RouteServer {
  constructor(db: Database) {
    super((request) => {
      const pathname = new URL(request.url).pathname;
      if (pathname === "/api/agent/config") return agentConfigResponse(db, request, { holdMs: 1500, checkEveryMs: 100 });
      if (pathname === "/api/agent/status") return agentStatusResponse(db, request);
      if (pathname === "/api/ingest") return ingest(db, request);
      return Promise.resolve(new Response("not found", { status: 404 }));
    });
  }
}

async function ingest(db: Database, request: Request): Promise<Response> {
  const agent = await authenticateAgent(db, bearerToken(request.headers.get("authorization")));
  if (!agent) return Response.json({ error: "unauthorized" }, { status: 401 });
  const parsed = ingestBatchSchema.safeParse(await request.json());
  if (!parsed.success) return Response.json({ error: "bad batch" }, { status: 400 });
  return Response.json(await ingestBatch(db, { organizationId: agent.organizationId, agentId: agent.agentId, batch: parsed.data }));
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
  await testPrisma(db).session.create({
    data: { tokenHash, userId: user.id, activeOrganizationId: organization.id, expiresAt: new Date(Date.now() + 3_600_000) },
  });
  const session = await findSession(db, tokenHash);
  return { organization, user, caller: createCaller({ db, session, sameOrigin: true }) };
}
