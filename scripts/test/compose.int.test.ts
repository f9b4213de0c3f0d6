import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_NODE_OPTIONS } from "../../apps/agent/src/node-options.ts";
import { WORKER_NODE_OPTIONS } from "../../apps/worker/src/node-options.ts";
import { REPO_ROOT } from "../lib/paths.ts";
import { typeScriptEntry } from "../lib/typescript-entry.ts";
import { webServerCommand } from "../lib/web-server.ts";

/**
 * docker-compose.yml and the Dockerfile, checked as far as a machine without a Docker engine
 * allows: Debian's docker-compose parses and validates the file and resolves it (`config`), and the
 * images' entry points are held to the ones `npm start` runs.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "tidemark-compose-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface ComposeService {
  build?: { target?: string };
  restart?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  volumes?: unknown[];
  healthcheck?: { start_period?: string };
  depends_on?: Record<string, { condition: string }>;
}

function envFile(values: Record<string, string>): string {
  const example = readFileSync(path.join(REPO_ROOT, ".env.example"), "utf8");
  const file = path.join(scratch, `env-${Object.keys(values).join("-") || "example"}`);
  writeFileSync(
    file,
    example.replace(/^(\w+)=.*$/gm, (line, key: string) => (key in values ? `${key}=${values[key]}` : line)),
  );
  return file;
}

function compose(env: string, ...args: string[]) {
  return spawnSync(
    "docker-compose",
    ["--project-directory", REPO_ROOT, "-f", path.join(REPO_ROOT, "docker-compose.yml"), "--env-file", env, ...args],
    {
      encoding: "utf8",
    },
  );
}

/** The resolved file as docker-compose prints it, read by the YAML parser docker-compose itself depends on (python3-yaml). */
function resolved(env: string, ...args: string[]): { services: Record<string, ComposeService> } {
  const config = compose(env, ...args, "config");
  expect(config.stderr).toBe("");
  const json = spawnSync("python3", ["-c", "import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"], {
    input: config.stdout,
    encoding: "utf8",
  });
  return JSON.parse(json.stdout);
}

/** `FROM … AS name` stages and each stage's CMD, as JSON arrays. */
interface DockerfileStage {
  cmd: string[] | null;
  workdir: string | null;
  user: string | null;
  runs: string[];
}

function dockerfileStages(): Map<string, DockerfileStage> {
  const stages = new Map<string, DockerfileStage>();
  let current: DockerfileStage | null = null;
  for (const line of readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8").split("\n")) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from) {
      current = { cmd: null, workdir: null, user: null, runs: [] };
      stages.set(from[1]!, current);
    } else if (current && /^CMD\s/.test(line)) current.cmd = JSON.parse(line.slice(4));
    else if (current && /^RUN\s/.test(line)) current.runs.push(line.slice(4).trim());
    else if (current && /^WORKDIR\s/.test(line)) current.workdir = line.slice(8).trim();
    else if (current && /^USER\s/.test(line)) current.user = line.slice(5).trim();
  }
  return stages;
}

describe("docker-compose.yml", () => {
  it("is valid and starts from nothing but a .env of secrets", () => {
    const env = envFile({ TIDEMARK_DB_PASSWORD: "s3cret-for-the-test" });
    const quiet = compose(env, "config", "-q");
    expect(quiet.stderr).toBe("");
    expect(quiet.status).toBe(0);
    const { services } = resolved(env);
    expect(Object.keys(services).sort()).toEqual(["agent", "migrate", "timescaledb", "web", "worker"]);
    // The agent needs a token that exists only after sign-in: it is behind a profile (`docker
    // compose up` leaves it out), and no service that starts by default waits for it.
    const byDefault = Object.entries(services).filter(([, s]) => !s.profiles?.length);
    expect(byDefault.map(([name]) => name).sort()).toEqual(["migrate", "timescaledb", "web", "worker"]);
    expect(services.agent!.profiles).toEqual(["agent"]);
    for (const [, service] of byDefault) expect(Object.keys(service.depends_on ?? {})).not.toContain("agent");
  });

  it("refuses to resolve without the database password, naming it", () => {
    const result = compose(envFile({ TIDEMARK_DB_PASSWORD: "" }), "config", "-q");
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("set TIDEMARK_DB_PASSWORD in .env");
  });

  it("runs built images with restart policies, health checks, migrations first and public links", () => {
    const { services } = resolved(
      envFile({ TIDEMARK_DB_PASSWORD: "pw", TIDEMARK_PUBLIC_URL: "https://tidemark.example" }),
      "--profile",
      "agent",
    );
    const stages = dockerfileStages();
    for (const name of ["migrate", "web", "worker", "agent"]) {
      const service = services[name]!;
      expect(stages.has(service.build?.target ?? ""), `${name} builds a Dockerfile stage`).toBe(true);
      // No host folder mounted: the image holds its own node_modules.
      expect(service.volumes ?? []).toEqual([]);
      expect(service.restart).toBe(name === "migrate" ? "no" : "unless-stopped");
    }
    expect(services.web!.depends_on?.migrate?.condition).toBe("service_completed_successfully");
    expect(services.worker!.depends_on?.migrate?.condition).toBe("service_completed_successfully");
    expect(services.web!.healthcheck?.start_period).toBeTruthy();
    expect(services.web!.environment?.TIDEMARK_PUBLIC_URL).toBe("https://tidemark.example");
    expect(services.worker!.environment?.TIDEMARK_PUBLIC_URL).toBe("https://tidemark.example");
  });
});

describe("Dockerfile", () => {
  const stages = dockerfileStages();

  it("runs the entry points npm start runs, as an unprivileged user", () => {
    for (const [name, stage] of stages) {
      if (name === "source") continue;
      expect(stage.user, `${name} runs as node`).toBe("node");
    }
    // The worker: the bundle `npm start` runs (scripts/lib/bundle.ts's bundleWorker), built at
    // image build time, run by plain node with the worker's node options.
    const worker = stages.get("worker")!;
    const bundle = worker.cmd!.at(-1)!;
    expect(worker.cmd!.slice(0, -1)).toEqual(["node", ...WORKER_NODE_OPTIONS]);
    expect(worker.runs).toContain(`node_modules/.bin/tsx scripts/bundle-worker.ts ${bundle}`);
    expect(readFileSync(path.join(REPO_ROOT, "scripts", "bundle-worker.ts"), "utf8")).toContain("bundleWorker(");
    expect(readFileSync(path.join(REPO_ROOT, "scripts", "start.ts"), "utf8")).toMatch(
      /group\.start\("worker", process\.execPath, \[\.\.\.WORKER_NODE_OPTIONS, await workerBundle\]/,
    );
    const agent = stages.get("agent")!;
    // The agent: as npm start runs it (typeScriptEntry), with the agent's node options.
    expect(agent.cmd).toEqual(["node", ...typeScriptEntry("src/main.ts", AGENT_NODE_OPTIONS).args]);
    expect(existsSync(path.join(REPO_ROOT, agent.workdir!.replace(/^\/app\//, ""), "src", "main.ts"))).toBe(true);
    // The web server: the bundle scripts/lib/web-server.ts has every launcher run, from the web
    // app's folder, built at image build time as npm start builds it (ensureWebBuild).
    const web = stages.get("web")!;
    expect(web.runs.join("\n")).toContain("node_modules/.bin/tsx scripts/build-web.ts");
    expect(readFileSync(path.join(REPO_ROOT, "scripts", "build-web.ts"), "utf8")).toContain("ensureWebBuild(");
    const launched = webServerCommand(3000, {});
    expect(path.basename(web.cmd![0]!)).toBe(path.basename(launched.command));
    expect(path.join(REPO_ROOT, web.workdir!.replace(/^\/app\//, ""), web.cmd![1]!)).toBe(launched.args[0]);
    expect(path.join(REPO_ROOT, web.workdir!.replace(/^\/app\//, ""))).toBe(launched.cwd);
    expect(stages.get("migrate")!.cmd).toEqual(["node", ...typeScriptEntry("scripts/migrate.ts").args]);
  });

  it("installs the monitoring plugins the agent's shell checks run", () => {
    const text = readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
    const agentStage = text.slice(text.indexOf("AS agent"));
    expect(agentStage).toContain("monitoring-plugins-basic");
  });
});
