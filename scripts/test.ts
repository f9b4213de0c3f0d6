/**
 * `npm test`: the type check of every workspace, the package boundaries and `biome check`; unit
 * tests; integration tests against the embedded TimescaleDB and again against plain PostgreSQL (the machine's Debian cluster, started if stopped); the embedded server's own
 * tests; and the browser tests in Debian's Chromium against a freshly started Tidemark.
 * `npm test -- types unit integration plain e2e` runs only the named phases. The Debian packages the
 * requested phases need are installed once, before the first phase. `npm test -- fresh` first
 * removes the ones it installs (Chromium, the monitoring plugins,
 * Prometheus, Alertmanager, node_exporter), then runs every phase: the proof
 * that a fresh machine passes on its first run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensurePrismaClient } from "./lib/build.ts";
import { CHROMIUM } from "./lib/chromium.ts";
import { prepareDatabase } from "./lib/database.ts";
import { say } from "./lib/log.ts";
import { bin, REPO_ROOT } from "./lib/paths.ts";
import { freePort } from "./lib/ports.ts";
import { dropPlainPostgres, preparePlainPostgres } from "./lib/postgres-local.ts";
import { waitForHttp } from "./lib/processes.ts";
import {
  CHROMIUM_PACKAGE,
  DOCKER_COMPOSE,
  ensureSystemPackages,
  FRESH_REMOVABLE,
  MONITORING_PLUGINS,
  POSTGRESQL_SERVER,
  PROMETHEUS_STACK,
  removeSystemPackages,
  type SystemPackage,
} from "./lib/system-packages.ts";
import { typeScriptEntry } from "./lib/typescript-entry.ts";

const PHASES = ["types", "unit", "integration", "plain", "e2e"] as const;
type Phase = (typeof PHASES)[number];
const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "fresh" && !(PHASES as readonly string[]).includes(a));
if (unknown.length) {
  process.stderr.write(`[tidemark] unknown test phase ${unknown.join(", ")}: use ${PHASES.join(", ")} or fresh\n`);
  process.exit(2);
}
const fresh = args.includes("fresh");
const requested = args.filter((a): a is Phase => (PHASES as readonly string[]).includes(a));
const phases = new Set<Phase>(requested.length ? requested : PHASES);

/** Which Debian packages each phase needs (the e2e phase runs `npm start`, whose local agent runs plugins). */
const PHASE_PACKAGES: Record<Phase, readonly SystemPackage[]> = {
  types: [],
  unit: [MONITORING_PLUGINS],
  integration: [MONITORING_PLUGINS, DOCKER_COMPOSE, ...PROMETHEUS_STACK],
  plain: [MONITORING_PLUGINS, POSTGRESQL_SERVER, ...PROMETHEUS_STACK],
  e2e: [MONITORING_PLUGINS, CHROMIUM_PACKAGE],
};

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}
const tally: Tally = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
const resultsDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-test-results-"));

function exec(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

async function vitest(label: string, project: "unit" | "integration", filters: string[], env: NodeJS.ProcessEnv = {}) {
  say(`── ${label}`);
  const out = path.join(resultsDir, `${label.replace(/\W+/g, "-")}.json`);
  const code = await exec(
    bin("vitest"),
    ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...filters],
    env,
  );
  try {
    const json = JSON.parse(readFileSync(out, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    tally.passed += json.numPassedTests;
    tally.failed += json.numFailedTests;
    tally.skipped += json.numPendingTests + json.numTodoTests;
  } catch {
    // No report means the run itself broke (a syntax error, a crash): count it as a failure.
    tally.failed += 1;
  }
  if (code !== 0) failures.push(label);
}

/**
 * Every workspace through tsc (turbo runs them in dependency order), then scripts/ and bench/,
 * which belong to no workspace (tsconfig.tools.json): a type error fails the run. Then the
 * package boundaries (scripts/check-boundaries.ts) and `biome check` (lint and format): each
 * fails the run on its own.
 */
async function typecheck() {
  say("── type check (turbo run typecheck, then scripts/ and bench/)");
  const workspaces = await exec(bin("turbo"), ["run", "typecheck", "--output-logs=errors-only"], {});
  const tools = await exec(bin("tsc"), ["-p", "tsconfig.tools.json"], {});
  if (workspaces !== 0 || tools !== 0) {
    failures.push("type check");
    tally.failed += 1;
  }
  say("── package boundaries (scripts/check-boundaries.ts)");
  if ((await exec(bin("tsx"), [path.join(REPO_ROOT, "scripts", "check-boundaries.ts")], {})) !== 0) {
    failures.push("package boundaries");
    tally.failed += 1;
  }
  say("── biome check (lint and format)");
  if ((await exec(bin("biome"), ["check", "."], {})) !== 0) {
    failures.push("biome check");
    tally.failed += 1;
  }
}

/** The integration suites that need a database: every workspace's, and npm start's provisioning of its own agents. */
const DATABASE_SUITES = ["packages/db", "packages/api", "apps", "scripts/test/local-agent"];

/** scripts/test's suites that need no database (start-up, compose): all but those DATABASE_SUITES runs. */
function startUpSuites(): string[] {
  return readdirSync(path.join(REPO_ROOT, "scripts", "test"))
    .filter((file) => file.endsWith(".int.test.ts"))
    .map((file) => `scripts/test/${file}`)
    .filter((suite) => !DATABASE_SUITES.some((selected) => suite.startsWith(selected)));
}

async function integrationOnEmbedded() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-it-embedded-"));
  const prepared = await prepareDatabase({ dataDir, log: say });
  await prepared.db.close();
  try {
    await vitest("integration · embedded TimescaleDB", "integration", DATABASE_SUITES, {
      DATABASE_URL: prepared.url,
      TIDEMARK_EXPECT_DB_KIND: "timescaledb",
    });
  } finally {
    await prepared.embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await vitest("embedded server and start-up", "integration", ["packages/embedded-pg", ...startUpSuites()]);
}

async function integrationOnPlainPostgres() {
  // One database per run, so that runs on the same machine do not drop each other's.
  const database = `tidemark_test_${process.pid}`;
  const url = preparePlainPostgres(database, say);
  if (!url) {
    const banner = "!".repeat(78);
    process.stderr.write(
      `\n${banner}\n!! NO POSTGRESQL SERVER ON THIS MACHINE: the plain-PostgreSQL integration run is SKIPPED.\n!! Install one (apt-get install postgresql) to run it.\n${banner}\n\n`,
    );
    tally.skipped += 1;
    return;
  }
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    const prepared = await prepareDatabase({ dataDir: resultsDir, log: say });
    await prepared.db.close();
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
  }
  try {
    await vitest("integration · plain PostgreSQL", "integration", DATABASE_SUITES, {
      DATABASE_URL: url,
      TIDEMARK_EXPECT_DB_KIND: "plain-postgresql",
    });
  } finally {
    dropPlainPostgres(database);
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function browserTests() {
  say("── browser tests (Playwright, Debian Chromium)");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-e2e-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), TIDEMARK_DATA_DIR: dataDir, TIDEMARK_DEMO_DAYS: "3" };
  delete env.DATABASE_URL;
  const start = typeScriptEntry(path.join(REPO_ROOT, "scripts", "start.ts"));
  const app = spawn(start.command, start.args, { cwd: REPO_ROOT, env, stdio: "inherit" });
  const out = path.join(resultsDir, "playwright.json");
  try {
    await waitForHttp(`http://127.0.0.1:${port}/api/health`, 240_000);
    const code = await exec(bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"], {
      BASE_URL: `http://127.0.0.1:${port}`,
      TIDEMARK_DATA_DIR: dataDir,
      CHROMIUM_PATH: CHROMIUM,
      PLAYWRIGHT_JSON_OUTPUT_NAME: out,
    });
    try {
      const stats = (
        JSON.parse(readFileSync(out, "utf8")) as { stats: { expected: number; unexpected: number; skipped: number; flaky: number } }
      ).stats;
      tally.passed += stats.expected + stats.flaky;
      tally.failed += stats.unexpected;
      tally.skipped += stats.skipped;
    } catch {
      tally.failed += 1;
    }
    if (code !== 0) failures.push("browser tests");
  } finally {
    await stopChild(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  await ensurePrismaClient(say);
  if (fresh) removeSystemPackages(FRESH_REMOVABLE, say);
  const needed = [...new Set([...phases].flatMap((phase) => PHASE_PACKAGES[phase]))];
  say("── system packages");
  const installed = await ensureSystemPackages(needed, say);
  if (!installed.length) say(`all present: ${needed.map((p) => p.name).join(", ") || "none needed"}`);
  if (phases.has("types")) await typecheck();
  if (phases.has("unit")) await vitest("unit", "unit", []);
  if (phases.has("integration")) await integrationOnEmbedded();
  if (phases.has("plain")) await integrationOnPlainPostgres();
  if (phases.has("e2e")) await browserTests();
  rmSync(resultsDir, { recursive: true, force: true });
  say(`finished in ${((Date.now() - started) / 1000).toFixed(0)} s${failures.length ? ` — failed: ${failures.join(", ")}` : ""}`);
  process.stdout.write(`${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped\n`);
  process.exit(failures.length || tally.failed ? 1 : 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`\n[tidemark] test run aborted: ${error instanceof Error ? error.message : String(error)}\n`);
  process.stdout.write(`${tally.passed} passed, ${tally.failed + 1} failed, ${tally.skipped} skipped\n`);
  process.exit(1);
});
