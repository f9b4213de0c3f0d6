import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * Seconds to first use (issue 22), as a newcomer meets them: a fresh clone of the committed HEAD
 * with shared/ beside it, `npm install` with an empty npm cache (BENCH_WARM_NPM_CACHE=1 keeps the
 * machine's), then `npm start` until it prints the URL; stopped with Ctrl-C (SIGINT) and started
 * again. Targets: install + first start ≤ 120 s, a second start ≤ 10 s, on this machine quiet and
 * under load: `BENCH_BACKGROUND_LOAD=N` keeps N processes spinning on the CPU meanwhile (N = the
 * number of cores doubles every CPU-bound step, as another team's build on the same box would).
 */

/** N processes that do nothing but use the CPU, stopped by the returned function. */
function spinners(count: number): () => void {
  const children = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return () => {
    for (const child of children) child.kill("SIGKILL");
  };
}

const URL_LINE = /open http:\/\/localhost:\d+ and sign in/;

/** What `npm start` printed on its way to the URL, each line with the seconds since the command began. */
export interface StartLine {
  atSeconds: number;
  line: string;
}

function timedNpmStart(dir: string, port: number): Promise<{ seconds: number; lines: StartLine[]; stop: () => Promise<void> }> {
  const started = performance.now();
  // The embedded database, as a newcomer gets it.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn("npm", ["start"], {
    cwd: dir,
    env: { ...env, PORT: String(port), TIDEMARK_DATA_DIR: path.join(dir, ".data") },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      // Ctrl-C reaches the whole process group, as in a terminal.
      process.kill(-child.pid!, "SIGINT");
      setTimeout(() => child.exitCode === null && process.kill(-child.pid!, "SIGKILL"), 30_000).unref();
    });
  return new Promise((resolve, reject) => {
    let output = "";
    let pending = "";
    const lines: StartLine[] = [];
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`npm start printed no URL within 10 minutes:\n${output.slice(-2000)}`));
    }, 600_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      pending += chunk.toString();
      const atSeconds = Math.round((performance.now() - started) / 100) / 10;
      const complete = pending.split("\n");
      pending = complete.pop() ?? "";
      for (const line of complete) if (line.trim()) lines.push({ atSeconds, line: line.trim() });
      if (URL_LINE.test(output)) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners("data");
        child.stdout!.resume();
        resolve({ seconds: Math.round((performance.now() - started) / 100) / 10, lines, stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing the URL:\n${output.slice(-2000)}`));
    });
  });
}

export const scenario: BenchScenario = {
  name: "startup",
  needsDatabase: false,
  async run({ log }) {
    const root = mkdtempSync(path.join(os.tmpdir(), "tidemark-startup-"));
    const dir = path.join(root, "main");
    const backgroundLoad = Number(process.env.BENCH_BACKGROUND_LOAD ?? 0);
    const stopSpinning = spinners(backgroundLoad);
    const loadAverageAtStart = os.loadavg()[0];
    const logLines = (lines: StartLine[]) => {
      for (const { atSeconds, line } of lines) log(`  ${atSeconds.toFixed(1).padStart(6)} s  ${line}`);
    };
    try {
      execFileSync("git", ["clone", "--quiet", REPO_ROOT, dir]);
      symlinkSync(path.join(REPO_ROOT, "..", "shared"), path.join(root, "shared"));
      const cache = process.env.BENCH_WARM_NPM_CACHE === "1" ? [] : ["--cache", path.join(root, "npm-cache")];
      const installStarted = performance.now();
      execFileSync("npm", ["install", "--no-audit", "--no-fund", ...cache], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      const installSeconds = Math.round((performance.now() - installStarted) / 100) / 10;
      log(`npm install: ${installSeconds} s`);
      const port = await freePort();
      const first = await timedNpmStart(dir, port);
      log(`first npm start: ${first.seconds} s to the URL`);
      logLines(first.lines);
      await first.stop();
      const second = await timedNpmStart(dir, port);
      log(`second npm start: ${second.seconds} s to the URL`);
      logLines(second.lines);
      await second.stop();
      const toFirstUse = Math.round((installSeconds + first.seconds) * 10) / 10;
      return {
        npmCache: cache.length ? "empty" : "the machine's",
        backgroundProcessesSpinning: backgroundLoad,
        loadAverageAtStart,
        loadAverageAtEnd: os.loadavg()[0],
        npmInstallSeconds: installSeconds,
        firstStartSeconds: first.seconds,
        installPlusFirstStartSeconds: toFirstUse,
        secondStartSeconds: second.seconds,
        // Where the seconds went: every line each start printed, timed.
        firstStartLines: first.lines,
        secondStartLines: second.lines,
        goals: { toFirstUseAtMost120s: toFirstUse <= 120, secondStartAtMost10s: second.seconds <= 10 },
      };
    } finally {
      stopSpinning();
      rmSync(root, { recursive: true, force: true });
    }
  },
};
