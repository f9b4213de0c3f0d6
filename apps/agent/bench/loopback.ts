import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentConfig } from "@tidemark/protocol";
import { bundleEntry } from "../../../scripts/lib/bundle.ts";
import { AGENT_NODE_OPTIONS } from "../src/node-options.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * A stand-in Tidemark for the agent benchmarks: it serves whatever configuration `nextConfig`
 * returns for a long-poll, counts status reports and ingested results, and answers at once, so
 * that what is measured is the agent and nothing else.
 */
export class BenchServer {
  results = 0;
  applied = 0;
  failed = 0;
  private server: http.Server | null = null;
  port = 0;

  constructor(private readonly nextConfig: (after: number) => AgentConfig | null) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://bench");
        if (url.pathname === "/api/agent/config") {
          const config = this.nextConfig(Number(url.searchParams.get("after") ?? 0));
          if (!config) {
            // Hold like the real server does, briefly.
            setTimeout(() => res.writeHead(204).end(), 1000);
            return;
          }
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(config));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as { status?: string; results?: unknown[]; batchId?: string };
        if (url.pathname === "/api/agent/status") {
          if (body.status === "applied") this.applied++;
          else this.failed++;
          res.writeHead(200, { "content-type": "application/json" }).end('{"recorded":true}');
          return;
        }
        if (url.pathname === "/api/ingest") {
          this.results += body.results?.length ?? 0;
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ batchId: body.batchId, accepted: body.results?.length ?? 0, duplicate: false, unknownSeries: [] }));
          return;
        }
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * How the agent runs: `tsx` as `npm start` runs it (TypeScript compiled on load, which costs the
 * process a loader thread of its own), or `bundle`, one JavaScript file built with esbuild (tsx's
 * own compiler), as an agent would be shipped to the machines it monitors.
 */
export type AgentRuntime = "tsx" | "bundle";

async function bundleAgent(outDir: string): Promise<string> {
  return bundleEntry(path.join(REPO_ROOT, "apps", "agent", "src", "main.ts"), path.join(outDir, "agent.mjs"));
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The agent as one node process (no wrapper process), so /proc of its pid is the agent. */
export async function spawnBenchAgent(
  serverUrl: string,
  runtime: AgentRuntime,
): Promise<{ child: ChildProcess; stop: () => Promise<void>; heapMb: () => Promise<{ used: number; total: number }> }> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-bench-agent-"));
  const statusPort = await freePort();
  const args = [
    ...AGENT_NODE_OPTIONS,
    ...(runtime === "bundle"
      ? [await bundleAgent(stateDir)]
      : ["--import", "tsx", path.join(REPO_ROOT, "apps", "agent", "src", "main.ts")]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      TIDEMARK_URL: serverUrl,
      TIDEMARK_AGENT_TOKEN: "tm_agent_bench",
      TIDEMARK_AGENT_STATE_DIR: stateDir,
      LOG_LEVEL: "warn",
      AGENT_PORT: String(statusPort),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return {
    child,
    /** The agent's V8 heap as its own /metrics reports it. */
    heapMb: async () => {
      const text = await (await fetch(`http://127.0.0.1:${statusPort}/metrics`)).text();
      const mb = (name: string) => Math.round(Number(new RegExp(`^tidemark_agent_${name} (\\S+)`, "m").exec(text)?.[1]) / 104_857.6) / 10;
      return { used: mb("nodejs_heap_size_used_bytes"), total: mb("nodejs_heap_size_total_bytes") };
    },
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        });
      }
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

const CLOCK_TICKS = 100;

/** CPU seconds (user + system) the process itself used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident and peak resident memory in MB, from /proc. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb("VmRSS") / 102.4) / 10, peak: Math.round(kb("VmHWM") / 102.4) / 10 };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
