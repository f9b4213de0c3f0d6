import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";
import { typeScriptEntry } from "../../scripts/lib/typescript-entry.ts";

/** `npm start`'s last line: the URL is served from then on. */
const READY_LINE = /open http:\/\/localhost:\d+ and sign in/;

export interface RunningTidemark {
  /** The process `npm start` runs (scripts/start.ts): the web server, the worker and the agents are its children. */
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Tidemark as `npm start` runs it (scripts/start.ts: the production web build, the worker, the
 * local agent, the demo organisation seeded on first start), in a process group of its own so that
 * stopping it stops everything it started. Resolves once it prints its URL.
 */
export async function startTidemark(opts: {
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  timeoutMs?: number;
}): Promise<RunningTidemark> {
  const start = typeScriptEntry(path.join(REPO_ROOT, "scripts", "start.ts"));
  const child = spawn(start.command, start.args, {
    cwd: REPO_ROOT,
    env: opts.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    // As Ctrl-C in a terminal: the whole group, so that start.ts shuts its children down.
    process.kill(-child.pid!, "SIGINT");
    const kill = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 30_000);
    await exited;
    clearTimeout(kill);
  };
  let tail = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in time:\n${tail}`)), opts.timeoutMs ?? 900_000);
    lines.on("line", (line) => {
      // The children's own logs (JSON lines, request by request) would drown the bench's.
      if (line.startsWith("[tidemark]")) opts.log(line);
      if (READY_LINE.test(line)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing its URL:\n${tail}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return { process: child, stop };
}
