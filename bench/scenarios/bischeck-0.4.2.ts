import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { storeIngestBatch } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { loadCalculationServices } from "@tidemark/db/evaluation";
import { queryRows } from "@tidemark/db/testing";
import { alertingEvaluator } from "../../apps/worker/src/alerting-evaluator.ts";
import { CalculationScheduler } from "../../apps/worker/src/calculations.ts";
import { drainQueue } from "../../apps/worker/src/evaluator.ts";
import { OrganizationCache } from "../../apps/worker/src/organization-cache.ts";
import { OrganizationWindows } from "../../apps/worker/src/series-window.ts";
import {
  bischeck042Configuration as configuration,
  BISCHECK_042_INTERVAL_MS as INTERVAL_MS,
  randKeys as randKeysOf,
} from "../lib/bischeck-042.ts";
import { phaseMeter } from "../lib/evaluation-phases.ts";
import { benchOrganization, importBench, prefill } from "../lib/fixtures.ts";
import { profiled } from "../lib/profile.ts";
import { rawWriteOfOneCycle } from "../lib/raw-stored-write.ts";
import { revisionLookMs } from "../lib/revision-looks.ts";
import { postgresServerCpuMs } from "../lib/server-cpu.ts";
import { cpuMs, summarize } from "../lib/stats.ts";
import { walPosition } from "../lib/wal.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * How a cycle's evaluation meets the next cycle. `sequential`: it ends before the next cycle's
 * points are ingested, so a cycle is the latency of its points, from the agents' batch to the
 * last state stored. `overlapped`: it runs while the next cycle's points are ingested and
 * calculated, as in production, where the agents post, the calculations' loop ticks and the
 * evaluation loop drains the queue, each on its own (apps/worker/src/main.ts); a cycle is then
 * the period the pipeline sustains. The last cycle waits for its own evaluation, so the mean
 * carries one tail.
 */
type CycleMode = "sequential" | "overlapped";

/** Bischeck 0.4.2's shape (bench/lib/bischeck-042.ts) driven cycle by cycle inside this process, as fast as it goes. */
async function runShape(db: Database, n: number, cachePoints: number, cycles: number, mode: CycleMode, log: (m: string) => void) {
  const org = await benchOrganization(db);
  await importBench(db, org, configuration(n));
  const start = Math.floor(Date.now() / INTERVAL_MS) * INTERVAL_MS - cycles * INTERVAL_MS;
  const randKeys = randKeysOf(n);
  await prefill(db, org, randKeys, cachePoints, INTERVAL_MS, start, (i) => 5 + (i % 10));
  log(`${n} jobs: configuration and ${n * cachePoints} cached points ready`);
  const configurationLookMs = await revisionLookMs(db, org);

  const organizations = new OrganizationCache(db, 60_000);
  const windows = new OrganizationWindows();
  const scheduler = new CalculationScheduler(db, organizations, new OrganizationWindows(), () => {});
  const evaluator = alertingEvaluator(db, organizations, windows, { maxQueueRows: 1000 });
  const services = (await loadCalculationServices(db)).filter((s) => s.organizationId === org);

  const phases = { ingestMs: 0, calculateMs: 0, evaluateMs: 0 };
  const perJobMs: number[] = [];
  const cycleCpuMs: number[] = [];
  const cycleWallMs: number[] = [];
  const memoryAfterCycle: { rssMb: number; heapUsedMb: number; arrayBuffersMb: number }[] = [];
  let evaluated = 0;
  const overlapped = mode === "overlapped";
  // The evaluation an overlapped cycle left running, with the points it evaluates.
  let evaluating: Promise<number> = Promise.resolve(0);
  const runCycle = async (c: number) => {
    const t = start + c * INTERVAL_MS;
    const measured = await cpuMs(async () => {
      let mark = performance.now();
      const lap = (phase: keyof typeof phases) => {
        if (c > 0) phases[phase] += performance.now() - mark;
        mark = performance.now();
      };
      // The checks' results as the web's POST /api/ingest stores an agent's batch.
      for (let i = 0; i < n; i += 5000) {
        await storeIngestBatch(db, {
          organizationId: org,
          agentId: null,
          batch: {
            batchId: `rand-${c}-${i}`,
            results: randKeys.slice(i, i + 5000).map((key, j) => ({ key, ts: t, value: 5 + ((c + i + j) % 10) })),
          },
        });
      }
      lap("ingestMs");
      await scheduler.runAll(services.map((service) => ({ service, dueMs: t + 1 })));
      lap("calculateMs");
      // Overlapped, this phase is only what the previous cycle's evaluation has left to do.
      const previous = await evaluating;
      const leaveRunning = overlapped && c > 0 && c < cycles;
      evaluating = leaveRunning ? drainQueue(evaluator) : Promise.resolve(0);
      const points = previous + (leaveRunning ? 0 : await drainQueue(evaluator));
      lap("evaluateMs");
      return points;
    });
    // The first cycle warms the window (loads the cached history); it is not counted.
    if (c === 0) return;
    evaluated += measured.result;
    perJobMs.push(measured.wallMs / n);
    cycleCpuMs.push(measured.cpuMs);
    cycleWallMs.push(measured.wallMs);
    // Under NODE_OPTIONS=--expose-gc the heap is collected first: what stays is what is live.
    (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
    memoryAfterCycle.push({ rssMb: mb(memory.rss), heapUsedMb: mb(memory.heapUsed), arrayBuffersMb: mb(memory.arrayBuffers) });
  };
  await runCycle(0);
  const meter = phaseMeter(evaluator);
  // Where a cycle's time goes besides waiting: this process's main thread (what cannot overlap
  // with itself) and PostgreSQL's processes (on the embedded server they are this process).
  const walBefore = await walPosition(db);
  const serverCpuBefore = db.info.embedded ? 0 : postgresServerCpuMs();
  const loopBefore = performance.eventLoopUtilization();
  await profiled(`bischeck-0.4.2-${n}-${db.info.kind}`, async () => {
    for (let c = 1; c <= cycles; c++) await runCycle(c);
  });
  const loop = performance.eventLoopUtilization(loopBefore);
  const serverCpuMs = db.info.embedded ? null : postgresServerCpuMs() - serverCpuBefore;
  const walAfter = await walPosition(db);
  const walBytesPerCycle = walBefore === null || walAfter === null ? null : Math.round((walAfter - walBefore) / cycles);
  const rows = await queryRows(
    db,
    `SELECT count(*)::int AS n FROM state_changes c JOIN series s ON s.id = c.series_id WHERE s.organization_id = $1`,
    [org],
  );
  const wall = cycleWallMs.reduce((a, b) => a + b, 0);
  const cpu = cycleCpuMs.reduce((a, b) => a + b, 0);

  const raw = await rawWriteOfOneCycle(db, org, {
    lastCycleTs: start + cycles * INTERVAL_MS,
    freshFromMs: start + (cycles + 2) * INTERVAL_MS,
  });
  const cycleMsMean = wall / cycles;

  return {
    cycleMode: mode,
    jobs: n,
    cachePointsPerSeries: cachePoints,
    cycles,
    pointsEvaluated: evaluated,
    stateChanges: rows[0].n,
    sustainedJobsPerSecond: Math.round((n * cycles) / (wall / 1000)),
    msPerJob: summarize(perJobMs),
    cycleMs: summarize(cycleWallMs),
    // Overlapped, evaluateMs is what the previous cycle's evaluation had left when the calculations ended.
    msPerCycleByPhase: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v / cycles)])),
    // The N calculated items carry the threshold; the N random checks are stored and queued too.
    // Per second of the evaluation phase, which overlapped runs hide behind the next cycle: null then.
    thresholdEvaluationsPerSecond: overlapped ? null : Math.round((n * cycles) / (phases.evaluateMs / 1000)),
    evaluationMsPerCycleByPhase: meter.perCycle(cycles),
    pointsThroughEvaluationPerSecond: overlapped ? null : Math.round(evaluated / (phases.evaluateMs / 1000)),
    // Flat from cycle to cycle when nothing leaks.
    memoryAfterCycle,
    cpuPercentOfOneCoreAtThirtySecondInterval: Math.round((cpu / cycles / INTERVAL_MS) * 1000) / 10,
    workerCpuMsPerCycle: Math.round(cpu / cycles),
    // The main thread busy (event loop active, the rest waits on PostgreSQL or sleeps): JavaScript
    // of the pipeline and of pg's protocol, which one core runs one piece at a time.
    mainThreadBusyMsPerCycle: Math.round(loop.active / cycles),
    // PostgreSQL's own CPU for a cycle's statements (every postgres process of the machine, its
    // background writers included; null on the embedded server), against its CPU for the raw
    // insert of the same points: the share of the ratio the database itself sets.
    postgresCpuMsPerCycle: serverCpuMs === null ? null : Math.round(serverCpuMs / cycles),
    postgresCpuOfRawInsertMs: raw.pointsServerCpuMs === null ? null : Math.round(raw.pointsServerCpuMs),
    // The best ratio this machine allows for the CPU a cycle spends: PostgreSQL's and this
    // process's CPU spread over every core with nothing waiting on anything.
    cpuBoundRatio:
      serverCpuMs === null ? null : Math.round(((serverCpuMs + cpu) / cycles / availableParallelism() / raw.pointsMs) * 100) / 100,
    rawInsertOfOneCycleMs: Math.round(raw.pointsMs),
    // The raw insert of the same points: one in each series the cycle wrote to (rawWriteOfOneCycle).
    cycleToRawInsertRatio: Math.round((cycleMsMean / raw.pointsMs) * 100) / 100,
    // Against as many points into one series, the denominator until issue 22's sixth round.
    cycleToRawInsertIntoOneSeriesRatio: Math.round((cycleMsMean / raw.pointsIntoOneSeriesMs) * 100) / 100,
    // What a cycle durably stores besides its points (states, alert memory, state changes), each
    // written raw: the ratio against it is what the pipeline costs beyond what it stores.
    rawWriteOfEverythingStored: { rows: raw.rows, ms: raw.ms, walBytes: raw.walBytes },
    cycleToRawStoredWriteRatio: Math.round((cycleMsMean / raw.storedMs) * 100) / 100,
    // The write-ahead log a cycle writes against that of the raw writes of what it stores (their
    // walBytes, median rounds): near 1 when the pipeline writes no more than its rows need, so
    // that what the ratios above carry beyond is the work around the writes. Null on the
    // embedded server.
    walBytesPerCycle,
    cycleToRawStoredWalRatio:
      walBytesPerCycle === null || raw.storedWalBytes === null ? null : Math.round((walBytesPerCycle / raw.storedWalBytes) * 100) / 100,
    // One look at the organisation's configuration revision and at every organisation's, taken
    // after the import, before the cycles.
    configurationLookMs,
  };
}

export const scenario: BenchScenario = {
  name: "bischeck-0.4.2",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("needs a database");
    const mode: CycleMode = process.env.BENCH_OVERLAP === "1" ? "overlapped" : "sequential";
    if (process.env.BENCH_JOBS)
      return { custom: await runShape(db, Number(process.env.BENCH_JOBS), 20, Number(process.env.BENCH_CYCLES ?? 2), mode, log) };
    const base = await runShape(db, 3000, 200, 5, "sequential", log);
    log(`3000 jobs: ${JSON.stringify(base)}`);
    const baseOverlapped = await runShape(db, 3000, 200, 5, "overlapped", log);
    log(`3000 jobs, overlapped: ${JSON.stringify(baseOverlapped)}`);
    const times10 = await runShape(db, 30_000, 20, 3, "sequential", log);
    return {
      bischeck: { jobsPerSecond: 100, msPerJob: 0.8, cpuPercent: 7, heapMb: 145, peakJobsPerSecond: 540 },
      x1: base,
      x1Overlapped: baseOverlapped,
      x10: times10,
    };
  },
};
