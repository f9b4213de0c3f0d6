import { type ChildProcess, spawn } from "node:child_process";

/**
 * Children that stop together: on shutdown each gets SIGTERM, then SIGKILL after a grace period.
 * A child that exits on its own is restarted with a growing delay (a crashed worker must not
 * take the web app down with it).
 */
export class ProcessGroup {
  private readonly children = new Set<ChildProcess>();
  private readonly restarts = new Map<string, number>();
  private stopping = false;

  constructor(private readonly onUnexpectedExit: (name: string, code: number | null, restartInMs: number) => void) {}

  start(name: string, command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcess {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    const prefix = (chunk: Buffer) =>
      chunk
        .toString()
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => `[${name}] ${l}\n`)
        .join("");
    child.stdout?.on("data", (c: Buffer) => process.stdout.write(prefix(c)));
    child.stderr?.on("data", (c: Buffer) => process.stderr.write(prefix(c)));
    this.children.add(child);
    const startedAt = Date.now();
    child.on("exit", (code) => {
      this.children.delete(child);
      if (this.stopping) return;
      // A child that ran a minute is healthy again: its next crash restarts it quickly.
      const attempt = Date.now() - startedAt > 60_000 ? 0 : (this.restarts.get(name) ?? 0);
      const delay = Math.min(30_000, 1000 * 2 ** attempt);
      this.restarts.set(name, attempt + 1);
      this.onUnexpectedExit(name, code, delay);
      setTimeout(() => {
        if (!this.stopping) this.start(name, command, args, opts);
      }, delay);
    });
    return child;
  }

  async stopAll(graceMs = 8000): Promise<void> {
    this.stopping = true;
    await Promise.all(
      [...this.children].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
            child.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
  }
}

/** How much of a quiet command's output a failure shows: its end, where the reason is. */
const QUIET_OUTPUT_TAIL_LINES = 20;

/**
 * Runs a command to its end. `quiet`: its output is kept, not shown, and the end of it is in the
 * error when it fails — for a command that runs beside others whose output matters more (apt
 * beside `npm start`'s build, whose lines it interleaved with).
 */
export async function run(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; quiet?: boolean }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    const output: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve();
      const tail = Buffer.concat(output).toString().trimEnd().split("\n").slice(-QUIET_OUTPUT_TAIL_LINES).join("\n");
      reject(new Error(`${command} ${args.join(" ")} exited with ${code}${tail ? `:\n${tail}` : ""}`));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return response;
      last = new Error(`HTTP ${response.status}: ${await response.text()}`);
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s: ${last instanceof Error ? last.message : String(last)}`);
}
