import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";

/**
 * Debian's Prometheus, Alertmanager and node_exporter as the tests run them: each on a free
 * loopback port with its own data directory, never the system services the packages install.
 */

export const PROMETHEUS_BIN = "/usr/bin/prometheus";
export const PROMTOOL_BIN = "/usr/bin/promtool";
export const ALERTMANAGER_BIN = "/usr/bin/prometheus-alertmanager";
export const NODE_EXPORTER_BIN = "/usr/bin/prometheus-node-exporter";

export class Program {
  private child: ChildProcess | null = null;
  log = "";
  readonly dir: string;

  constructor(
    readonly name: string,
    readonly port: number,
  ) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), `tidemark-${name}-`));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  file(name: string, text: string): string {
    const file = path.join(this.dir, name);
    writeFileSync(file, text);
    return file;
  }

  /** Starts it and waits until `readyPath` answers 200. */
  async start(bin: string, args: string[], readyPath: string): Promise<void> {
    const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], cwd: this.dir });
    this.child = child;
    child.stdout?.on("data", (c: Buffer) => (this.log += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (this.log += c.toString()));
    const end = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}:\n${this.log}`);
      const ok = await fetch(`${this.url}${readyPath}`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (Date.now() > end) throw new Error(`${this.name} did not become ready:\n${this.log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startNodeExporter(): Promise<Program> {
  const program = new Program("node-exporter", await freePort());
  // A few cheap collectors: the test needs real samples, not all of them.
  await program.start(
    NODE_EXPORTER_BIN,
    [
      `--web.listen-address=127.0.0.1:${program.port}`,
      "--collector.disable-defaults",
      "--collector.loadavg",
      "--collector.meminfo",
      "--collector.time",
    ],
    "/metrics",
  );
  return program;
}

/** Prometheus and Alertmanager alike: a config file, a data folder of their own, a loopback port, ready at /-/ready. */
async function startConfigured(name: string, bin: string, config: string, flags: (dir: string) => string[]): Promise<Program> {
  const program = new Program(name, await freePort());
  const file = program.file(`${name}.yml`, config);
  await program.start(bin, [`--config.file=${file}`, `--web.listen-address=127.0.0.1:${program.port}`, ...flags(program.dir)], "/-/ready");
  return program;
}

export function startPrometheus(config: string): Promise<Program> {
  return startConfigured("prometheus", PROMETHEUS_BIN, config, (dir) => [
    `--storage.tsdb.path=${path.join(dir, "data")}`,
    "--storage.tsdb.retention.time=1h",
  ]);
}

export function startAlertmanager(config: string): Promise<Program> {
  // No gossip: a single instance, and no port of the cluster's to collide on.
  return startConfigured("alertmanager", ALERTMANAGER_BIN, config, (dir) => [
    `--storage.path=${path.join(dir, "data")}`,
    "--cluster.listen-address=",
  ]);
}
