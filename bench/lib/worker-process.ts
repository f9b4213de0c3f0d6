import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { WORKER_NODE_OPTIONS } from "../../apps/worker/src/node-options.ts";
import { bundleWorker } from "../../scripts/lib/bundle.ts";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";

const ENTRY = path.join(REPO_ROOT, "apps", "worker", "src", "main.ts");
let bundled: Promise<string> | null = null;

/**
 * Starts the worker as its own process, as `npm start` does: plain node on the esbuild bundle
 * (`BENCH_WORKER_RUNTIME=tsx`: through tsx's loader, as before issue 22), node itself in either
 * case so that /proc and signals reach the worker, with WORKER_NODE_OPTIONS as every launcher.
 * `BENCH_WORKER_NODE_FLAGS` adds node flags (a later flag wins over WORKER_NODE_OPTIONS).
 */
export async function spawnWorker(
  databaseUrl: string,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<ChildProcess> {
  const tsx = process.env.BENCH_WORKER_RUNTIME === "tsx";
  if (!tsx) bundled ??= bundleWorker(path.join(mkdtempSync(path.join(os.tmpdir(), "tidemark-bench-worker-")), "worker.mjs"));
  return spawn(
    process.execPath,
    [
      ...WORKER_NODE_OPTIONS,
      ...(process.env.BENCH_WORKER_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
      ...(options.nodeArgs ?? []),
      ...(tsx ? ["--import", "tsx", ENTRY] : [await bundled!]),
    ],
    {
      cwd: path.join(REPO_ROOT, "apps", "worker"),
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn", ...options.env },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

/** Stops a worker started by spawnWorker: SIGTERM, SIGKILL after 15 s. */
export async function stopWorker(worker: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    if (worker.exitCode !== null || worker.signalCode !== null) return resolve();
    worker.once("exit", () => resolve());
    worker.kill("SIGTERM");
    setTimeout(() => worker.kill("SIGKILL"), 15_000).unref();
  });
}
