import { storeIngestBatch } from "@tidemark/api/http";
import { execute, queryRows } from "@tidemark/db/testing";
import type { Configuration } from "@tidemark/model";
import { evaluateThreshold } from "@tidemark/thresholds";
import { alertingEvaluator } from "../../apps/worker/src/alerting-evaluator.ts";
import { drainQueue } from "../../apps/worker/src/evaluator.ts";
import { OrganizationCache } from "../../apps/worker/src/organization-cache.ts";
import { OrganizationWindows, SeriesWindow } from "../../apps/worker/src/series-window.ts";
import { phaseMeter } from "../lib/evaluation-phases.ts";
import { benchOrganization, expressionPolicy, importBench, oneItemPerHost, prefill } from "../lib/fixtures.ts";
import { profiled } from "../lib/profile.ts";
import { postgresServerCpuMs } from "../lib/server-cpu.ts";
import { summarize } from "../lib/stats.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * Bischeck 1.1.1's time-based query write-up (seeds/001): 10 series of 15 000 points, one point
 * a second each, and a threshold of nine time-based references evaluated every second. Bischeck
 * 1.1.0 scanned its cache list (58 % CPU); 1.1.1's binary search got it to 5 %. Runs in real time.
 */
const SERIES = 10;
const HISTORY = 15_000;
const SELF = "$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$";
const NINE = ["10M", "20M", "30M", "40M", "60M", "90M", "120M", "150M", "180M"].map((o) => `${SELF}[-${o}]`).join(", ");

function configuration(): Configuration {
  const policy = expressionPolicy(`avg(${NINE})`, "<", 10, 30);
  return oneItemPerHost({
    count: SERIES,
    host: "server",
    service: "metric",
    item: "value",
    schedule: "1S",
    policy,
    cacheMaxCount: HISTORY,
  });
}

export const scenario: BenchScenario = {
  name: "bischeck-1.1.1",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("needs a database");
    const seconds = Number(process.env.BENCH_SECONDS ?? 60);
    const org = await benchOrganization(db);
    await importBench(db, org, configuration());
    const keys = Array.from({ length: SERIES }, (_, i) => `server${i}-metric-value`);
    const start = Math.floor(Date.now() / 1000) * 1000;
    await prefill(db, org, keys, HISTORY, 1000, start, (i) => 100 + (i % 60));
    log(`${SERIES} series × ${HISTORY} points ready; running ${seconds} s in real time`);

    const evaluator = alertingEvaluator(db, new OrganizationCache(db, 60_000), new OrganizationWindows());
    const value = (s: number, i: number) => 100 + ((s * 7 + i) % 60);
    // Warm-up: loads each series' window (three hours of points) once.
    await storeIngestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: "warm-0", results: keys.map((key, i) => ({ key, ts: start, value: value(0, i) })) },
    });
    await drainQueue(evaluator);

    const cycleMs: number[] = [];
    const ingestMs: number[] = [];
    const evaluationMs: number[] = [];
    let evaluationCpuMs = 0;
    const cpu0 = process.cpuUsage();
    const server0 = db.info.embedded ? 0 : postgresServerCpuMs();
    const wall0 = performance.now();
    const meter = phaseMeter(evaluator);
    await profiled(`bischeck-1.1.1-${db.info.kind}`, async () => {
      for (let s = 1; s <= seconds; s++) {
        const t0 = performance.now();
        await storeIngestBatch(db, {
          organizationId: org,
          agentId: null,
          batch: { batchId: `sec-${s}`, results: keys.map((key, i) => ({ key, ts: start + s * 1000, value: value(s, i) })) },
        });
        const t1 = performance.now();
        const evaluationCpu0 = process.cpuUsage();
        await drainQueue(evaluator);
        const evaluationCpu = process.cpuUsage(evaluationCpu0);
        evaluationCpuMs += (evaluationCpu.user + evaluationCpu.system) / 1000;
        const t2 = performance.now();
        ingestMs.push(t1 - t0);
        evaluationMs.push(t2 - t1);
        cycleMs.push(t2 - t0);
        const next = wall0 + s * 1000;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    });
    const wall = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const serverMs = db.info.embedded ? 0 : postgresServerCpuMs() - server0;
    const processCpuMs = (cpu.user + cpu.system) / 1000;

    // The raw limit in the same run: one indexed nearest-to-a-time lookup.
    const ids = await queryRows(db, `SELECT id FROM series WHERE organization_id = $1 ORDER BY id LIMIT 1`, [org]);
    const lookupMs: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t0 = performance.now();
      await execute(db, `SELECT value FROM metric_points WHERE series_id = $1 AND ts <= $2 ORDER BY ts DESC LIMIT 1`, [
        ids[0].id,
        new Date(start - (i % 180) * 60_000),
      ]);
      lookupMs.push(performance.now() - t0);
    }
    const lookup = summarize(lookupMs);

    // The threshold itself, as Bischeck's figure measures it: nine time lookups in the window.
    const window = new SeriesWindow();
    window.hold("server0-metric-value", { count: 1, lookbackMs: 3 * 3_600_000, toOldest: false, intervalMs: 1000 });
    for (let i = HISTORY; i >= 0; i--) window.append("server0-metric-value", start - i * 1000, 100 + (i % 60));
    const policy = configuration().hosts[0]!.services[0]!.items[0]!.policy!;
    const evalUs: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const t0 = performance.now();
      evaluateThreshold(policy, {
        at: start - (i % 600) * 1000,
        value: 130,
        context: { data: window, macros: { host: "server0", service: "metric", item: "value" } },
      });
      evalUs.push((performance.now() - t0) * 1000);
    }
    const cycle = summarize(cycleMs);
    return {
      series: SERIES,
      historyPerSeries: HISTORY,
      seconds,
      evaluationsPerSecond: SERIES,
      referencesPerEvaluation: 9,
      thresholdEvaluationUs: summarize(evalUs.slice(2000)),
      // The worker's share of a second: claim the ten points, evaluate them (alerts included), write.
      evaluationMs: summarize(evaluationMs),
      evaluationMsPerCycleByPhase: meter.perCycle(seconds),
      // The ingest endpoint's share: store the ten points and queue them.
      ingestMs: summarize(ingestMs),
      cycleMs: cycle,
      cpuPercentOfOneCore: {
        // The bench process also plays the ingest endpoint; the evaluation's own share apart.
        workerProcess: Math.round((processCpuMs / wall) * 1000) / 10,
        evaluationInWorkerProcess: Math.round((evaluationCpuMs / wall) * 1000) / 10,
        postgresServer: db.info.embedded ? "inside the worker process" : Math.round((serverMs / wall) * 1000) / 10,
      },
      rawIndexedLookupMs: lookup,
      cycleP99ToLookupP50Ratio: Math.round((cycle.p99 / lookup.p50) * 10) / 10,
      bischeck: { "1.1.0": { cpuPercent: 58 }, "1.1.1": { cpuPercent: 5 } },
    };
  },
};
