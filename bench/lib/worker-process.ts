import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";

/**
 * Starts the worker as its own process, as `npm start` does: node itself (not the tsx wrapper,
 * which would be a second process), so that /proc and signals reach the worker.
 * `BENCH_WORKER_NODE_FLAGS` adds node flags.
 */
export function spawnWorker(databaseUrl: string, options: { nodeArgs?: string[]; env?: Record<string, string> } = {}): ChildProcess {
  return spawn(
    process.execPath,
    [
      ...(process.env.BENCH_WORKER_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
      ...(options.nodeArgs ?? []),
      "--import",
      "tsx",
      path.join(REPO_ROOT, "apps", "worker", "src", "main.ts"),
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
