import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

export function tempDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-pg-test-"));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the DATABASE_URL line, or rejects with stderr when the process exits first. */
  url: Promise<string>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Runs the CLI in a child process (node --import tsx, so that signals reach the server itself). */
export function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, stderr })),
  );
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      stdout += d;
      const m = /^DATABASE_URL=(.+)$/m.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    void exit.then((e) => reject(new Error(`cli exited (${e.code ?? e.signal}) before ready: ${e.stderr}`)));
  });
  url.catch(() => {});
  return { child, url, exit };
}
