import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashToken } from "@tidemark/auth";
import { connectDatabase, type Database } from "@tidemark/db/client";
import { configurationOverview, listItemsWithLastValues } from "@tidemark/db/configuration";
import { queueDepth } from "@tidemark/db/evaluation";
import { countBoardStates } from "@tidemark/db/metrics";
import { findSession } from "@tidemark/db/organizations";
import { DEMO_USER } from "@tidemark/db/seed";
import superjson from "superjson";
import { trpcResponse } from "../../apps/web/src/server/trpc-response.ts";
import { WEB_SERVER_BUNDLE_NAME } from "../../scripts/lib/build.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import { httpLoad, type LoadRequest, type LoadResult } from "../lib/http-load.ts";
import { profiled } from "../lib/profile.ts";
import { findDescendant, processTreeCpuMs } from "../lib/server-cpu.ts";
import { summarize } from "../lib/stats.ts";
import { startTidemark } from "../lib/tidemark-process.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The dashboard API under load (issue 22), as a team meets it: Tidemark started as `npm start`
 * starts it (production web build, worker, local agent, the demo organisation) on the run's
 * database — for the embedded one, its own embedded TimescaleDB inside start.ts's process, as
 * `npm start` runs it (the runner's would share this process with the load generator); USERS signed-in users (each its own session, from POST /api/auth/sign-in) call the
 * list (`dashboard.items`, 50 rows), the overview, a preview and the timeline back to back for
 * SECONDS each; then the list and the overview at the seed's fixed 10 requests/s. Beside each, the
 * web server's CPU per request, and the raw database figure of the same run: the list's and the
 * overview's own queries from as many concurrent callers through a pool of the web server's size,
 * with no HTTP, session or tRPC around them. And where a request's CPU goes, from one caller in
 * this process: the list's query alone, then the /api/trpc handler around it (session, tRPC,
 * validation, serialisation; no HTTP, no Next.js), per call — against the web server's CPU per
 * request, the difference being Next.js and HTTP. (On the embedded database the query's own
 * server CPU is in another process either way.)
 * It measures once the worker has evaluated the demo's backlog (at most BENCH_SETTLE_SECONDS, 600).
 * BENCH_SECONDS (default 15) and BENCH_USERS (default 50) size it; BENCH_DEMO_DAYS seeds fewer days;
 * BENCH_PROCEDURES=list,overview runs only those. BENCH_WEB_CPU_PROF=<dir> writes a V8 CPU profile
 * of the web server per measured run into that directory (lib/cpu-profile-preload.cjs; summarised
 * by bench/profile-summary.ts); BENCH_PROFILE=1 profiles the list's handler in this process
 * (bench/results/api-list-handler.cpuprofile).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const USERS = Number(process.env.BENCH_USERS ?? 50);
const WARM_UP_SECONDS = 3;
const FIXED_RATE = 10;
const WINDOW_MS = 7 * 86_400_000;
/** The web server's pool (apps/web/src/server/database.ts): the raw figure gets the same number of connections. */
const WEB_POOL_SIZE = 5;
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 600);
const ONLY = process.env.BENCH_PROCEDURES?.split(",") ?? null;
const PROFILE_DIR = process.env.BENCH_WEB_CPU_PROF;
const GOALS = { plainListPerSecond: 1000, plainListP95Ms: 100, embeddedListPerSecond: 300, fixedRateP99Ms: 200 };

/** A tRPC call over HTTP, its input in superjson's wire form (a query's in the URL, a mutation's in the body). */
function trpcCall(procedure: string, kind: "query" | "mutation", input?: unknown): LoadRequest {
  const encoded = input === undefined ? undefined : JSON.stringify(superjson.serialize(input));
  if (kind === "mutation") return { method: "POST", path: `/api/trpc/${procedure}`, body: encoded };
  return { method: "GET", path: `/api/trpc/${procedure}${encoded ? `?input=${encodeURIComponent(encoded)}` : ""}` };
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: DEMO_USER.email, password: DEMO_USER.password }),
  });
  const cookie = /tm_session=([^;]+)/.exec(response.headers.get("set-cookie") ?? "")?.[1];
  if (!response.ok || !cookie) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  return decodeURIComponent(cookie);
}

/** A list item with a policy, for the preview: read through the API as the page reads it. */
async function previewableItem(base: string, cookie: string): Promise<string> {
  const list = trpcCall("dashboard.items", "query", { limit: 200 });
  // Just after start-up the worker evaluates the demo's backlog: a busy database may answer 503 at first.
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${base}${list.path}`, { headers: { cookie: `tm_session=${cookie}` } });
    if (!response.ok) {
      if (attempt === 10) throw new Error(`dashboard.items answered ${response.status}: ${await response.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      continue;
    }
    const body = (await response.json()) as { result: { data: Parameters<typeof superjson.deserialize>[0] } };
    const item = superjson.deserialize<{ rows: { id: string; hasPolicy: boolean }[] }>(body.result.data).rows.find((r) => r.hasPolicy);
    if (!item) throw new Error("the demo organisation has no item with a policy to preview");
    return item.id;
  }
}

/**
 * Until the worker has evaluated the demo's backlog (the last days, queued at the first start):
 * measured during it, the first procedure would share the machine with a worker busier than it
 * ever is afterwards. The local agent keeps queueing a few points a minute: "drained" is a short queue.
 */
async function backlogDrained(db: Database, log: (message: string) => void) {
  const until = performance.now() + SETTLE_SECONDS * 1000;
  for (;;) {
    const { rows } = await queueDepth(db);
    if (rows <= 200) return { queuedRowsAtStart: rows, drained: true };
    if (performance.now() > until) return { queuedRowsAtStart: rows, drained: false };
    log(`api: the worker has ${rows} queued rows to evaluate; waiting`);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

/** `callers` concurrent loops of `query` for `seconds`: what the database alone sustains. */
async function rawLoad(seconds: number, callers: number, query: () => Promise<unknown>) {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await query();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { queriesPerSecond: Math.round((latencies.length / seconds) * 10) / 10, latencyMs: summarize(latencies) };
}

/** One caller, back to back, for `seconds`: this process's CPU per call and each call's latency. */
async function sequentialCost(seconds: number, call: () => Promise<unknown>) {
  const latencies: number[] = [];
  const warmUntil = performance.now() + 1000;
  while (performance.now() < warmUntil) await call();
  const cpu = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    await call();
    latencies.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  return {
    calls: latencies.length,
    cpuMsPerCall: Math.round(((used.user + used.system) / 1000 / latencies.length) * 100) / 100,
    latencyMs: summarize(latencies),
  };
}

export const scenario: BenchScenario = {
  name: "api",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("the api scenario needs a database");
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-api-bench-"));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const demoDays = process.env.BENCH_DEMO_DAYS;
    const { DATABASE_URL: _runners, ...environment } = process.env;
    const tidemark = await startTidemark({
      env: {
        ...environment,
        ...(db.info.embedded ? {} : { DATABASE_URL: db.url }),
        PORT: String(port),
        TIDEMARK_DATA_DIR: dataDir,
        ...(demoDays ? { TIDEMARK_DEMO_DAYS: demoDays } : {}),
        ...(PROFILE_DIR
          ? {
              BENCH_WEB_CPU_PROF: path.resolve(PROFILE_DIR),
              NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${path.join(import.meta.dirname, "..", "lib", "cpu-profile-preload.cjs")}`,
            }
          : {}),
      },
      log,
    });
    let raw: Database | null = null;
    try {
      // start.ts writes the URL of the database it serves (its own embedded one, or DATABASE_URL).
      raw = await connectDatabase(readFileSync(path.join(dataDir, "database-url"), "utf8").trim(), {
        max: WEB_POOL_SIZE,
        applicationName: "tidemark-bench-raw",
      });
      const rawDb = raw;
      const webPid = findDescendant(tidemark.process.pid!, (cmd) => cmd.includes(WEB_SERVER_BUNDLE_NAME));
      if (webPid === null) throw new Error("found no web server among npm start's processes");
      log(`api: the web server is process ${webPid}`);
      const cookies: string[] = [];
      for (let i = 0; i < USERS; i++) cookies.push(await signIn(base));
      const session = await findSession(rawDb, hashToken(cookies[0]!));
      if (!session) throw new Error("the sign-in's session is not in the database");
      const organizationId = session.organizationId;
      const to = new Date();
      const from = new Date(to.getTime() - WINDOW_MS);
      const itemId = await previewableItem(base, cookies[0]!);
      const worker = await backlogDrained(rawDb, log);
      const procedures: Record<string, LoadRequest> = {
        list: trpcCall("dashboard.items", "query", { limit: 50 }),
        overview: trpcCall("dashboard.overview", "query"),
        preview: trpcCall("preview.run", "mutation", { itemId, from, to, draft: null }),
        timeline: trpcCall("alerts.timeline", "query", { from, to }),
      };

      /** One load run, with the web server's CPU per request over it. */
      const measure = async (request: LoadRequest, connections: number, requestsPerSecond?: number) => {
        if (PROFILE_DIR) process.kill(webPid, "SIGUSR2");
        const cpuBefore = processTreeCpuMs(webPid);
        const result: LoadResult = await httpLoad({ url: base, request, cookies, connections, seconds: SECONDS, requestsPerSecond });
        const webCpuMs = processTreeCpuMs(webPid) - cpuBefore;
        if (PROFILE_DIR) process.kill(webPid, "SIGUSR2");
        if (result.non2xx > 0 || result.errors > 0)
          log(`api: ${request.path}: ${result.non2xx} non-2xx answers (${result.status5xx} 5xx), ${result.errors} errors`);
        return { ...result, webServerCpuMsPerRequest: Math.round((webCpuMs / Math.max(1, result.requests)) * 100) / 100 };
      };

      /** An unmeasured run of WARM_UP_SECONDS, the way the measured one after it will load the server. */
      const warmUp = (request: LoadRequest, connections: number, requestsPerSecond?: number) =>
        httpLoad({ url: base, request, cookies, connections, seconds: WARM_UP_SECONDS, requestsPerSecond });

      const concurrent: Record<string, Awaited<ReturnType<typeof measure>>> = {};
      for (const [name, request] of Object.entries(procedures)) {
        if (ONLY && !ONLY.includes(name)) continue;
        // Unmeasured: the first calls load the route's modules and warm the JIT.
        await warmUp(request, USERS);
        concurrent[name] = await measure(request, USERS);
        log(
          `api: ${name} · ${USERS} users: ${concurrent[name].requestsPerSecond} req/s, p50 ${concurrent[name].latencyMs.p50} ms, p95 ${concurrent[name].latencyMs.p95} ms`,
        );
      }
      const fixedRate: Record<string, Awaited<ReturnType<typeof measure>>> = {};
      for (const name of ["list", "overview"]) {
        if (ONLY && !ONLY.includes(name)) continue;
        // Unmeasured, at the same rate: the requests of the run before (50 users, the last ones
        // still in the database when it stops sending) finish here, not in this run's tail.
        await warmUp(procedures[name]!, FIXED_RATE, FIXED_RATE);
        fixedRate[name] = await measure(procedures[name]!, FIXED_RATE, FIXED_RATE);
        log(`api: ${name} at ${FIXED_RATE} req/s: p50 ${fixedRate[name].latencyMs.p50} ms, p99 ${fixedRate[name].latencyMs.p99} ms`);
      }

      const rawDatabase = {
        note: `the procedures' own queries from ${USERS} concurrent callers through a pool of ${WEB_POOL_SIZE} connections, as the web server's: no HTTP, session, tRPC`,
        list: await rawLoad(SECONDS, USERS, () => listItemsWithLastValues(rawDb, organizationId, { limit: 50 })),
        overview: await rawLoad(SECONDS, USERS, () =>
          Promise.all([configurationOverview(rawDb, organizationId), countBoardStates(rawDb, organizationId)]),
        ),
      };
      log(`api: raw list query: ${rawDatabase.list.queriesPerSecond} q/s, p95 ${rawDatabase.list.latencyMs.p95} ms`);

      const handlerCall = (request: LoadRequest) => async () => {
        const response = await trpcResponse(
          rawDb,
          new Request(`${base}${request.path}`, { headers: { cookie: `tm_session=${cookies[0]}` } }),
        );
        await response.text();
        if (!response.ok) throw new Error(`${request.path} answered ${response.status} in process`);
      };
      const perRequestCpu = {
        note: "CPU ms per call from one caller in the bench process: the query alone, then the /api/trpc handler (session, tRPC, serialisation) around it; webServer is the HTTP figure above (Next.js and HTTP on top)",
        list: {
          query: await sequentialCost(SECONDS / 3, () => listItemsWithLastValues(rawDb, organizationId, { limit: 50 })),
          handler: await profiled("api-list-handler", () => sequentialCost(SECONDS / 3, handlerCall(procedures.list!))),
          webServer: concurrent.list?.webServerCpuMsPerRequest ?? null,
        },
        overview: {
          query: await sequentialCost(SECONDS / 3, () =>
            Promise.all([configurationOverview(rawDb, organizationId), countBoardStates(rawDb, organizationId)]),
          ),
          handler: await sequentialCost(SECONDS / 3, handlerCall(procedures.overview!)),
          webServer: concurrent.overview?.webServerCpuMsPerRequest ?? null,
        },
      };
      log(
        `api: CPU per list call: query ${perRequestCpu.list.query.cpuMsPerCall} ms, handler ${perRequestCpu.list.handler.cpuMsPerCall} ms, web server ${perRequestCpu.list.webServer} ms`,
      );

      const plain = db.info.kind === "plain-postgresql";
      const listPerSecondGoal = plain ? GOALS.plainListPerSecond : GOALS.embeddedListPerSecond;
      return {
        users: USERS,
        secondsPerRun: SECONDS,
        loadAverageAtStart: os.loadavg()[0],
        window: "7 days (preview and timeline)",
        worker,
        concurrent,
        fixedRate: { requestsPerSecond: FIXED_RATE, connections: FIXED_RATE, ...fixedRate },
        rawDatabase,
        perRequestCpu,
        listToRawQueryRatio: concurrent.list
          ? Math.round((concurrent.list.requestsPerSecond / rawDatabase.list.queriesPerSecond) * 100) / 100
          : null,
        goals: concurrent.list && {
          [`listAtLeast${listPerSecondGoal}PerSecond`]: concurrent.list.requestsPerSecond >= listPerSecondGoal,
          ...(plain ? { listP95Under100ms: concurrent.list.latencyMs.p95 < GOALS.plainListP95Ms } : {}),
          fixedRateP99Under200ms: Object.values(fixedRate).every((r) => r.latencyMs.p99 < GOALS.fixedRateP99Ms),
          everyAnswer2xx: [...Object.values(concurrent), ...Object.values(fixedRate)].every((r) => r.non2xx === 0 && r.errors === 0),
        },
      };
    } finally {
      await raw?.close();
      await tidemark.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
