import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { CHECK_ENVIRONMENT, type CheckIdentity } from "./check-identity.ts";

/**
 * Long-lived /bin/sh workers that run plugin command lines for the agent, as Nagios 4 moved
 * check execution into worker processes: forking the agent (a Node process of tens of MB) for
 * every check costs it milliseconds of CPU each time, forking a 1 MB shell costs next to nothing.
 * A worker reads one command per line, runs it with stdin from /dev/null and answers
 * `<exit code>\0<output>\0`. A command that overruns its timeout is killed with its whole worker
 * (its own process group), which is then replaced. Workers run as the check identity (never
 * root when the agent is root), in /, with only CHECK_ENVIRONMENT.
 */

const WORKER_SCRIPT = `while IFS= read -r tm_command; do
  tm_output=$(eval "$tm_command" 2>&1 </dev/null)
  tm_code=$?
  printf '%s\\0%s\\0' "$tm_code" "$tm_output"
done`;

/** Plugins print little; output past this is cut. */
const MAX_OUTPUT_CHARS = 64 * 1024;

export interface CommandExit {
  stdout: string;
  code: number | null;
  timedOut: boolean;
}

interface Pending {
  resolve: (exit: CommandExit) => void;
  reject: (error: Error) => void;
}

class ShellWorker {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private pending: Pending | null = null;
  dead = false;

  constructor(identity: CheckIdentity | null, onDeath: (worker: ShellWorker) => void) {
    this.child = spawn("/bin/sh", ["-c", WORKER_SCRIPT], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      cwd: "/",
      env: { ...CHECK_ENVIRONMENT },
      ...(identity ? { uid: identity.uid, gid: identity.gid } : {}),
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.receive(chunk));
    this.child.stderr.resume();
    this.child.stdin.on("error", () => undefined);
    this.child.once("exit", () => {
      this.dead = true;
      onDeath(this);
      this.pending?.reject(new Error("the check worker exited"));
      this.pending = null;
    });
    this.child.once("error", () => undefined);
  }

  run(command: string, signal: AbortSignal): Promise<CommandExit> {
    return new Promise<CommandExit>((resolve, reject) => {
      const onAbort = () => {
        this.kill();
        resolve({ stdout: "", code: null, timedOut: true });
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const settle =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          signal.removeEventListener("abort", onAbort);
          f(v);
        };
      this.pending = { resolve: settle(resolve), reject: settle(reject) };
      this.child.stdin.write(`${command}\n`);
    });
  }

  kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.pending = null;
    try {
      if (this.child.pid) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    const first = this.buffer.indexOf("\0");
    const second = first < 0 ? -1 : this.buffer.indexOf("\0", first + 1);
    if (second < 0) return;
    const code = Number(this.buffer.slice(0, first));
    const stdout = this.buffer.slice(first + 1, second).slice(0, MAX_OUTPUT_CHARS);
    this.buffer = this.buffer.slice(second + 1);
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ stdout, code: Number.isInteger(code) ? code : null, timedOut: false });
  }
}

/** Idle workers are reused; at most as many exist as commands run at once (the agent's concurrency). */
export class ShellWorkerPool {
  constructor(private readonly identity: CheckIdentity | null = null) {}

  private readonly idle: ShellWorker[] = [];
  private readonly all = new Set<ShellWorker>();
  private closed = false;

  get size(): number {
    return this.all.size;
  }

  async run(command: string, signal: AbortSignal): Promise<CommandExit> {
    if (this.closed) throw new Error("the agent is stopping");
    if (command.includes("\n")) throw new Error("a check command must be one line");
    const worker = this.idle.pop() ?? this.spawn();
    try {
      return await worker.run(command, signal);
    } finally {
      if (!worker.dead && !this.closed) this.idle.push(worker);
    }
  }

  close(): void {
    this.closed = true;
    for (const worker of this.all) worker.kill();
    this.all.clear();
    this.idle.length = 0;
  }

  private spawn(): ShellWorker {
    const worker = new ShellWorker(this.identity, (dead) => {
      this.all.delete(dead);
      const at = this.idle.indexOf(dead);
      if (at >= 0) this.idle.splice(at, 1);
    });
    this.all.add(worker);
    return worker;
  }
}
