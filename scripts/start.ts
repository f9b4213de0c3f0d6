/**
 * `npm start`: everything on one machine. The embedded TimescaleDB (unless DATABASE_URL is
 * set), migrations, the demo organisation on first start, the web app, the worker and a local
 * agent; prints the URL and the demo sign-in. Ctrl-C stops it all cleanly.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEMO_ORG, DEMO_USER, seedDemo } from "@tidemark/db/seed";
import { localAgentEnvironment } from "../apps/agent/src/local-agent-env.ts";
import { AGENT_NODE_OPTIONS } from "../apps/agent/src/node-options.ts";
import { WORKER_NODE_OPTIONS } from "../apps/worker/src/node-options.ts";
import { ensurePrismaClient, ensureWebBuild, ensureWorkerBundle } from "./lib/build.ts";
import { prepareDatabase } from "./lib/database.ts";
import { provisionDemoFleet } from "./lib/demo-fleet.ts";
import { provisionLocalAgent } from "./lib/local-agent.ts";
import { fail, say } from "./lib/log.ts";
import { DATA_DIR, REPO_ROOT, sharedDir } from "./lib/paths.ts";
import { isPortFree } from "./lib/ports.ts";
import { ProcessGroup, waitForHttp } from "./lib/processes.ts";
import { ensureSystemPackages, START_PACKAGES } from "./lib/system-packages.ts";
import { typeScriptEntry } from "./lib/typescript-entry.ts";
import { webServerCommand } from "./lib/web-server.ts";

const started = Date.now();
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_535) fail(`PORT=${process.env.PORT} is not a port number (1-65535).`);
const embeddedPort = process.env.TIDEMARK_DB_PORT ? Number(process.env.TIDEMARK_DB_PORT) : undefined;

let stopEmbedded: () => Promise<void> | undefined = () => undefined;
let shuttingDown = false;
const group = new ProcessGroup((name, code, restartInMs) => {
  if (!shuttingDown) process.stderr.write(`[tidemark] ${name} exited (code ${code}); restarting it in ${restartInMs / 1000} s\n`);
});

async function main() {
  if (!(await isPortFree(port, "0.0.0.0"))) {
    fail(`Port ${port} is already in use: stop what is using it, or start Tidemark on another port with PORT=3001 npm start.`);
  }
  await ensurePrismaClient(say);
  // The local agent runs Debian's monitoring plugins. On a fresh machine apt installs them (about
  // 9 s) while the web app builds and the demo is seeded; the agent starts once they are in.
  const plugins = ensureSystemPackages(START_PACKAGES, say).catch((error: unknown) => {
    say(`warning: ${error instanceof Error ? error.message : String(error)} — the local agent's checks will fail until then`);
  });
  // The web build reads no database: it runs while the database starts and the demo is seeded
  // (the two use different resources — Next's compilers and the database server — so a first start
  // takes the longer of the two, not their sum).
  const webBuild = ensureWebBuild(say);
  webBuild.catch(() => undefined); // awaited below; a failure before then must not be unhandled
  // The worker runs from one JavaScript file with plain node: tsx's loader would cost it a third
  // of its memory (issue 22). Built alongside (about a second), when its sources changed.
  const workerBundle = ensureWorkerBundle(path.join(DATA_DIR, "build", "worker.mjs"));
  workerBundle.catch(() => undefined);
  const prepared = await prepareDatabase({ dataDir: DATA_DIR, embeddedPort, log: say });
  stopEmbedded = () => prepared.embedded?.stop();
  // Tools and browser tests that need the database read its URL here (the embedded port varies).
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(path.join(DATA_DIR, "database-url"), `${prepared.url}\n`, { mode: 0o600 });
  const { db, migration } = prepared;
  say(
    `database: ${db.info.kind === "timescaledb" ? `TimescaleDB ${db.info.timescaleVersion}` : "plain PostgreSQL"} (PostgreSQL ${db.info.serverVersion}); ` +
      `migrations: ${migration.applied.length} applied now, ${migration.alreadyApplied} already`,
  );

  async function shutdown(code: number) {
    if (shuttingDown) return;
    shuttingDown = true;
    say("stopping…");
    await group.stopAll();
    await prepared.embedded?.stop();
    say("stopped");
    process.exit(code);
  }
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  const env = { ...process.env, DATABASE_URL: prepared.url, NEXT_TELEMETRY_DISABLED: "1" };
  // The web server needs only its build and the database: it starts (several seconds of loading
  // Next.js) while the demo is seeded and the agents are provisioned, not after them. The URL is
  // printed once everything is ready.
  const webStarted = webBuild.then(() => {
    // Next.js for pages, the API straight from Node's HTTP server (apps/web/src/main.ts).
    const web = webServerCommand(port, env);
    if (!shuttingDown) group.start("web", web.command, web.args, web);
  });
  webStarted.catch(() => undefined); // awaited below; a failure before then must not be unhandled

  const nabDir = sharedDir("data", "nab");
  const days = process.env.TIDEMARK_DEMO_DAYS ? Number(process.env.TIDEMARK_DEMO_DAYS) : undefined;
  if (await seedDemo(db, { nabDir, days, log: say })) say("demo organisation seeded");
  // Before the local agent: the demo agents' first deployment must not carry the local agent's checks,
  // which wait for the first click on Deploy.
  const demoAgents = await provisionDemoFleet(db, { dataDir: DATA_DIR, organizationSlug: DEMO_ORG.slug });
  const localAgentEnv = await provisionLocalAgent(db, { dataDir: DATA_DIR, organizationSlug: DEMO_ORG.slug, webPort: port });
  if (localAgentEnv === null) say("the local agent is revoked (or there is no demo organisation): it is not started");
  await db.close();

  await webStarted;
  // The web server first, alone: the worker's first cycle (the demo's last days) and the agents'
  // loading took the CPU and the database from its first requests, 4–5 s of a first start on a
  // quiet machine. None of them was ever waited for; they start the moment it answers.
  const health = (await (await waitForHttp(`http://127.0.0.1:${port}/api/health`, 60_000)).json()) as { database: { kind: string } };
  group.start("worker", process.execPath, [...WORKER_NODE_OPTIONS, await workerBundle], {
    cwd: path.join(REPO_ROOT, "apps", "worker"),
    env: { ...env, TIDEMARK_URL: `http://127.0.0.1:${port}` },
  });
  await plugins;
  if (localAgentEnv !== null) {
    const agent = typeScriptEntry(path.join(REPO_ROOT, "apps", "agent", "src", "main.ts"), AGENT_NODE_OPTIONS);
    group.start("agent", agent.command, agent.args, {
      cwd: path.join(REPO_ROOT, "apps", "agent"),
      env: localAgentEnvironment(env, { TIDEMARK_URL: `http://127.0.0.1:${port}`, ...localAgentEnv }),
    });
  }

  if (demoAgents && demoAgents.length > 0) {
    const fleet = typeScriptEntry(path.join(REPO_ROOT, "scripts", "demo-fleet.ts"));
    group.start("demo-agents", fleet.command, fleet.args, {
      cwd: REPO_ROOT,
      // Agents of their own: like the local agent, they get none of the server's secrets.
      env: localAgentEnvironment(env, { TIDEMARK_URL: `http://127.0.0.1:${port}`, TIDEMARK_DEMO_AGENTS: JSON.stringify(demoAgents) }),
    });
  }

  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s — database: ${health.database.kind}`);
  say(`open http://localhost:${port} and sign in as ${DEMO_USER.email} / ${DEMO_USER.password}`);
}

main().catch(async (error: unknown) => {
  // The web server may already run (it starts while the demo is seeded).
  shuttingDown = true;
  await group.stopAll();
  await stopEmbedded();
  fail(error instanceof Error ? error.message : String(error));
});
