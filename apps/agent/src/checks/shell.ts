import { spawn } from "node:child_process";
import type { AgentCheck, CheckResult } from "@tidemark/protocol";
import { parsePluginOutput, parseShellExec, pickValue } from "../nagios.ts";
import { errorText, firstLine } from "./types.ts";

/** Plugins print little; more than this is cut (and the rest discarded) to bound memory. */
const MAX_OUTPUT_BYTES = 64 * 1024;

interface Exit {
  stdout: string;
  code: number | null;
  timedOut: boolean;
}

/**
 * Runs a command line through /bin/sh (pipes and quoting work as in Nagios) in its own process
 * group, so that on timeout the plugin and anything it started are killed, not just the shell.
 */
export function runCommand(command: string, signal: AbortSignal): Promise<Exit> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve({ stdout: "", code: null, timedOut: true });
    const child = spawn("/bin/sh", ["-c", command], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let size = 0;
    const collect = (chunk: Buffer) => {
      if (size >= MAX_OUTPUT_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    signal.addEventListener("abort", kill, { once: true });
    child.once("error", (error) => {
      signal.removeEventListener("abort", kill);
      reject(error);
    });
    child.once("close", (code) => {
      signal.removeEventListener("abort", kill);
      resolve({ stdout: Buffer.concat(chunks).toString("utf8"), code, timedOut });
    });
  });
}

/** shell:// — each item's exec is a plugin command; its value is a perfdata label. */
export async function runShellCheck(check: AgentCheck, signal: AbortSignal): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const item of check.items) {
    const ts = Date.now();
    try {
      const exec = parseShellExec(item.exec);
      const exit = await runCommand(exec.command, signal);
      if (exit.timedOut) {
        results.push({ key: item.key, ts, value: null, status: 3, output: `timed out after ${check.timeoutMs} ms` });
        continue;
      }
      const output = parsePluginOutput(exit.stdout, exit.code);
      results.push({ key: item.key, ts, value: pickValue(output, exec.label), status: output.status, output: firstLine(output.summary) });
    } catch (error) {
      results.push({ key: item.key, ts, value: null, status: 3, output: firstLine(errorText(error)) });
    }
  }
  return results;
}
