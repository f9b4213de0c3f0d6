/**
 * The worker: evaluates queued points against thresholds, runs bischeck:// calculations on
 * their schedules, and on the embedded database (no background workers there) refreshes the
 * continuous aggregates and applies retention itself. Any number of workers can run against one
 * database; SIGTERM finishes the batch in hand and exits.
 */
import { closeRetiredAlerts } from "@tidemark/db/alerts";
import { connectDatabase } from "@tidemark/db/client";
import { foldConfigurationChanges, queueDepth } from "@tidemark/db/evaluation";
import { dropExpiredHistory, refreshAggregates } from "@tidemark/db/metrics";
import { pino } from "pino";
import { alertingEvaluator } from "./alerting-evaluator.ts";
import { CalculationScheduler } from "./calculations.ts";
import { EVALUATION_PHASES } from "./evaluator.ts";
import { FreshnessWatch } from "./freshness.ts";
import { createWorkerMetrics, serveMetrics } from "./metrics.ts";
import { startNotifier } from "./notifier.ts";
import { OrganizationCache } from "./organization-cache.ts";
import { OrganizationWindows } from "./series-window.ts";

const log = pino({ base: { component: "worker" } });
const url = process.env.DATABASE_URL;
if (!url) {
  log.fatal("DATABASE_URL is not set: point it at Tidemark's database (npm start sets it).");
  process.exit(1);
}

const db = await connectDatabase(url, { max: 4, applicationName: "tidemark-worker" });
const metrics = createWorkerMetrics();
const windows = new OrganizationWindows();
let scheduler: CalculationScheduler | null = null;
const organizations = new OrganizationCache(db, 5000, (org) => scheduler?.sourcesFor(org) ?? []);
// Calculations read through a window of their own: catching up there must not put points the
// evaluator has not reached yet into its window (its `[0]` is always the point being evaluated).
scheduler = new CalculationScheduler(db, organizations, new OrganizationWindows(), (event, message) => log.warn(event, message));
const publicUrl = process.env.TIDEMARK_PUBLIC_URL;
const evaluator = alertingEvaluator(db, organizations, windows, { publicUrl });
const freshness = new FreshnessWatch(db, (event, message) => log.info(event, message));
const reportedPhaseMs = { ...evaluator.phaseMs };
const info = db.info;
let stopping = false;

const server = await serveMetrics(metrics, Number(process.env.WORKER_METRICS_PORT ?? 0), () => ({
  status: stopping ? "stopping" : "ok",
  database: info.kind,
  windowPoints: windows.pointCount(),
}));
const address = server.address();
log.info(
  {
    database: info.kind,
    embedded: info.embedded,
    metrics: typeof address === "object" && address ? `http://127.0.0.1:${address.port}/metrics` : null,
  },
  "worker started",
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function evaluationLoop(): Promise<void> {
  while (!stopping) {
    const timer = metrics.batchSeconds.startTimer();
    try {
      const { points, organizationId, moreQueued } = await evaluator.runBatch();
      if (organizationId) {
        timer();
        metrics.pointsEvaluated.inc(points);
        metrics.batches.inc();
      }
      if (moreQueued) continue;
    } catch (error) {
      metrics.errors.inc({ component: "evaluation" });
      log.error({ err: error }, "evaluation batch failed; its points are retried with backoff");
    }
    await sleep(200);
  }
}

async function every(ms: number, component: string, task: () => Promise<void>): Promise<void> {
  while (!stopping) {
    try {
      await task();
    } catch (error) {
      metrics.errors.inc({ component });
      log.error({ err: error }, `${component} failed`);
    }
    for (let waited = 0; waited < ms && !stopping; waited += 250) await sleep(250);
  }
}

const loops = [
  evaluationLoop(),
  every(1000, "calculations", async () => {
    metrics.calculations.inc(await scheduler.tick());
  }),
  // Stale items and silent agents: made-up UNKNOWN results through the evaluation queue.
  every(5000, "freshness", async () => {
    await freshness.tick();
  }),
  // Items a deployment removed, revoked agents: their open alerts close (no result ever will).
  every(5000, "retired-series", async () => {
    const closed = await closeRetiredAlerts(db, { externalUrl: publicUrl });
    if (closed > 0) log.info({ closed }, "closed the alerts of retired series");
  }),
  // The log the configuration revisions count (configuration-revision.ts) stays about a minute long.
  every(60_000, "configuration-changes", async () => {
    await foldConfigurationChanges(db);
  }),
  every(5000, "queue-metrics", async () => {
    const depth = await queueDepth(db);
    metrics.queueRows.set(depth.rows);
    metrics.queueLagSeconds.set(depth.oldest ? (Date.now() - depth.oldest.getTime()) / 1000 : 0);
    metrics.windowPoints.set(windows.pointCount());
    for (const phase of EVALUATION_PHASES) {
      metrics.phaseSeconds.inc({ phase }, (evaluator.phaseMs[phase] - reportedPhaseMs[phase]) / 1000);
      reportedPhaseMs[phase] = evaluator.phaseMs[phase];
    }
  }),
];
if (info.embedded && info.kind === "timescaledb") {
  // Continuous-aggregate and retention policies never fire on PGlite: do their work here.
  loops.push(
    every(60_000, "aggregate-refresh", async () => {
      const to = new Date();
      await refreshAggregates(db, { from: new Date(to.getTime() - 3 * 3_600_000), to });
    }),
    every(86_400_000, "retention", async () => {
      await dropExpiredHistory(db);
    }),
  );
}

const stopNotifier = startNotifier(db, { log: log.child({ component: "notifier" }) });

async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "stopping after the batch in hand");
  await Promise.allSettled([...loops, stopNotifier()]);
  server.close();
  await db.close();
  log.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
