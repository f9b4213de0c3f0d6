import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { storeIngestBatch } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { queueDepth } from "@tidemark/db/evaluation";
import { execute, queryRows } from "@tidemark/db/testing";
import { memoryMb, sleep } from "../../apps/agent/bench/loopback.ts";
import { REPO_ROOT } from "../../scripts/lib/paths.ts";
import { bischeck042Configuration, BISCHECK_042_INTERVAL_MS as INTERVAL_MS, randKeys } from "../lib/bischeck-042.ts";
import { benchOrganization, importBench, prefill } from "../lib/fixtures.ts";
import { spawnWorker, stopWorker } from "../lib/worker-process.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The worker's memory in its production shape (issue 22): the worker runs as its own process, as
 * `npm start` starts it, on Bischeck 0.4.2's shape (bench/lib/bischeck-042.ts) in real time: every
 * 30 s the N random checks arrive through the ingest path, the worker runs the N bischeck://
 * calculations on their schedule and evaluates all 2N points. After each cycle has been evaluated
 * the worker is asked (SIGUSR2, bench/lib/heap-probe.mjs) to collect garbage and report its live heap;
 * RSS is read from /proc. The slope over the cycles after warm-up says whether anything grows.
 *
 * `BENCH_JOBS=N` runs one size; `BENCH_SECONDS` sets the length of each size's run (the one-hour
 * soak: `BENCH_SECONDS=3600 BENCH_JOBS=3000`, not run in CI).
 * Targets: ≤ 150 MB RSS at 3 000 jobs, ≤ 600 MB at 30 000, heap slope ~0 after warm-up.
 *
 * Run with both sizes, the 30 000-job organisation is new to statistics that autovacuum took
 * while the 3 000-job one ran (and was deleted), as a large new tenant's is: queries planned as
 * joins for one row a side held its first cycle for minutes until they became probes per row.
 */

const WARMUP_CYCLES = 2;
const mb = (bytes: number) => Math.round(bytes / 104_857.6) / 10;

interface Sample {
  cycle: number;
  /** When the cycle's checks were stamped (epoch ms): cycles come 30 s apart, or 60 s when a cycle's evaluation ends past the next boundary. */
  atMs: number;
  rssMb: number;
  heapAfterGcMb: number;
  evaluatedWithinMs: number;
  /** The worker's CPU (user + system) since the previous sample: what memory-saving flags cost. */
  workerCpuMs: number;
}

/** CPU the process has used (user + system, from /proc at the kernel's 100 ticks a second), in ms. */
function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU over a span, as a share of one core (one decimal); null for an empty span. */
function percentOfOneCore(cpuMs: number, spanMs: number): number | null {
  return spanMs > 0 ? Math.round((cpuMs / spanMs) * 1000) / 10 : null;
}

/** Least-squares slope of y over x, per hour when x is in ms. */
function slopePerHour(samples: { at: number; y: number }[]): number | null {
  if (samples.length < 2) return null;
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.at, 0) / n;
  const my = samples.reduce((a, s) => a + s.y, 0) / n;
  const sxy = samples.reduce((a, s) => a + (s.at - mx) * (s.y - my), 0);
  const sxx = samples.reduce((a, s) => a + (s.at - mx) ** 2, 0);
  return sxx === 0 ? null : Math.round((sxy / sxx) * 3_600_000 * 10) / 10;
}

function startWorker(databaseUrl: string, probeFile: string): Promise<ChildProcess> {
  return spawnWorker(databaseUrl, {
    nodeArgs: ["--expose-gc", "--import", path.join(REPO_ROOT, "bench", "lib", "heap-probe.mjs")],
    env: { BENCH_HEAP_PROBE_FILE: probeFile },
  });
}

async function probeHeap(worker: ChildProcess, probeFile: string): Promise<number> {
  const before = readLines(probeFile).length;
  worker.kill("SIGUSR2");
  for (let waited = 0; waited < 30_000; waited += 50) {
    const lines = readLines(probeFile);
    if (lines.length > before) return (JSON.parse(lines.at(-1)!) as { heapUsed: number }).heapUsed;
    await sleep(50);
  }
  throw new Error("the worker did not answer the heap probe within 30 s");
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** Both the random checks and the calculated items of the cycle starting at `t` are stored, and nothing is queued. */
async function cycleEvaluated(db: Database, org: string, n: number, t: number): Promise<boolean> {
  const rows = await queryRows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM metric_points p JOIN series s ON s.id = p.series_id
      WHERE s.organization_id = $1 AND p.ts >= $2 AND p.ts < $3`,
    [org, new Date(t), new Date(t + INTERVAL_MS)],
  );
  return (rows[0]?.n ?? 0) >= 2 * n && (await queueDepth(db)).rows === 0;
}

async function runSize(db: Database, databaseUrl: string, n: number, seconds: number, log: (m: string) => void) {
  const org = await benchOrganization(db);
  await importBench(db, org, bischeck042Configuration(n));
  const keys = randKeys(n);
  const firstCycle = Math.ceil(Date.now() / INTERVAL_MS) * INTERVAL_MS;
  await prefill(db, org, keys, n >= 30_000 ? 20 : 200, INTERVAL_MS, firstCycle, (i) => 5 + (i % 10));
  const dir = mkdtempSync(path.join(os.tmpdir(), "tidemark-worker-memory-"));
  const probeFile = path.join(dir, "heap.jsonl");
  const worker = await startWorker(databaseUrl, probeFile);
  const samples: Sample[] = [];
  const cycles = Math.max(WARMUP_CYCLES + 2, Math.floor(seconds / (INTERVAL_MS / 1000)));
  try {
    const rssAtStart = memoryMb(worker.pid!).rss;
    let cpuBefore = processCpuMs(worker.pid!);
    for (let c = 0; c < cycles; c++) {
      const t = Math.ceil(Date.now() / INTERVAL_MS) * INTERVAL_MS;
      await sleep(t - Date.now());
      for (let i = 0; i < n; i += 5000) {
        await storeIngestBatch(db, {
          organizationId: org,
          agentId: null,
          batch: {
            batchId: `memory-${t}-${i}`,
            results: keys.slice(i, i + 5000).map((key, j) => ({ key, ts: t, value: 5 + ((c + i + j) % 10) })),
          },
        });
      }
      while (!(await cycleEvaluated(db, org, n, t))) {
        if (Date.now() > t + 2 * INTERVAL_MS) throw new Error(`cycle ${c} at ${n} jobs was not evaluated within two intervals`);
        await sleep(100);
      }
      const evaluatedWithinMs = Date.now() - t;
      const heap = await probeHeap(worker, probeFile);
      const cpuNow = processCpuMs(worker.pid!);
      const sample = {
        cycle: c,
        atMs: t,
        rssMb: memoryMb(worker.pid!).rss,
        heapAfterGcMb: mb(heap),
        evaluatedWithinMs,
        workerCpuMs: cpuNow - cpuBefore,
      };
      cpuBefore = cpuNow;
      samples.push(sample);
      log(`${n} jobs, cycle ${c}: ${JSON.stringify(sample)}`);
    }
    const steady = samples.filter((s) => s.cycle >= WARMUP_CYCLES);
    const steadyCpuMs = steady.reduce((a, s) => a + s.workerCpuMs, 0);
    const peakRssMb = memoryMb(worker.pid!).peak;
    const maxRss = Math.max(...steady.map((s) => s.rssMb));
    const target = n >= 30_000 ? 600 : 150;
    return {
      jobs: n,
      cycles,
      intervalSeconds: INTERVAL_MS / 1000,
      workerRssAtStartMb: rssAtStart,
      workerPeakRssMb: peakRssMb,
      workerRssMaxAfterWarmupMb: maxRss,
      // Over the cycles' own instants: at 30 000 jobs they come about 60 s apart, not 30.
      heapAfterGcSlopeMbPerHour: slopePerHour(steady.map((s) => ({ at: s.atMs, y: s.heapAfterGcMb }))),
      rssSlopeMbPerHour: slopePerHour(steady.map((s) => ({ at: s.atMs, y: s.rssMb }))),
      workerCpuMsPerCycleAfterWarmup: Math.round(steadyCpuMs / steady.length),
      // Per cycle, a sample 60 s after the previous one counts twice a 30-s one's work; over the
      // time the steady samples span (from the last warm-up sample on), the rate compares runs
      // whose cycles fell differently.
      workerCpuPercentOfOneCoreAfterWarmup: percentOfOneCore(steadyCpuMs, steady.at(-1)!.atMs - samples[WARMUP_CYCLES - 1]!.atMs),
      perCycle: samples,
      goals: { [`rssAtMost${target}Mb`]: maxRss <= target },
    };
  } finally {
    await stopWorker(worker);
    // Leave the next size an empty database: the worker of the next size must not evaluate this one.
    await execute(db, `DELETE FROM organizations WHERE id = $1`, [org]);
    rmSync(dir, { recursive: true, force: true });
  }
}

export const scenario: BenchScenario = {
  name: "worker-memory",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("needs a database");
    const databaseUrl = db.url;
    const seconds = Number(process.env.BENCH_SECONDS ?? 150);
    if (process.env.BENCH_JOBS) return { custom: await runSize(db, databaseUrl, Number(process.env.BENCH_JOBS), seconds, log) };
    return {
      bischeck: { heapMb: 145, jobs: 3000 },
      x1: await runSize(db, databaseUrl, 3000, seconds, log),
      x10: await runSize(db, databaseUrl, 30_000, seconds, log),
    };
  },
};
