import { storeIngestBatch } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { EVALUATION_SHARDS } from "@tidemark/db/evaluation";
import { execute, queryRows } from "@tidemark/db/testing";
import type { Configuration } from "@tidemark/model";
import { sleep } from "../../apps/agent/bench/loopback.ts";
import { benchOrganization, expressionPolicy, importBench, oneItemPerHost } from "../lib/fixtures.ts";
import { spawnWorker, stopWorker } from "../lib/worker-process.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * Scale-out (issue 22): one large organisation, 1, 2 and 3 worker processes (as `npm start`
 * runs the worker) sharing it — its series fall into EVALUATION_SHARDS shards, one worker per
 * shard at a time. A backlog of `BENCH_JOBS` series × `BENCH_CYCLES` points (default 3 000 × 20,
 * each item a Bischeck-style `avg(…[0:9])` threshold on its own series) is queued through the
 * ingest path and held back (its lease set to the future) until every worker is connected; then
 * released, and the time until the queue is empty gives evaluations/s.
 *
 * On this 2-core machine the database shares the cores with the workers: past two workers the
 * figure says how the work divides more than how far it scales on bigger hardware.
 */

const WORKER_COUNTS = [1, 2, 3];

function configuration(n: number): Configuration {
  const policy = expressionPolicy("avg($$HOSTNAME$$-load-value[0:9])", ">", 5, 10);
  return oneItemPerHost({
    count: n,
    host: "host",
    service: "load",
    item: "value",
    schedule: "1S",
    policy,
    cacheMaxCount: 200,
    execStatement: "1.0",
  });
}

async function queued(db: Database, org: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM evaluation_queue WHERE organization_id = $1`, [org]);
  return rows[0]!.n;
}

async function workerConnections(db: Database): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    `SELECT count(DISTINCT pid)::int AS n FROM pg_stat_activity WHERE application_name = 'tidemark-worker' AND datname = current_database()`,
  );
  return rows[0]!.n;
}

async function runWith(db: Database, workers: number, n: number, cycles: number, log: (m: string) => void) {
  const org = await benchOrganization(db);
  await importBench(db, org, configuration(n));
  const keys = Array.from({ length: n }, (_, i) => `host${i}-load-value`);
  const end = Date.now();
  for (let c = 0; c < cycles; c++) {
    const ts = end - (cycles - c) * 1000;
    for (let i = 0; i < n; i += 5000) {
      await storeIngestBatch(db, {
        organizationId: org,
        agentId: null,
        batch: {
          batchId: `scale-${workers}-${c}-${i}`,
          results: keys.slice(i, i + 5000).map((key, j) => ({ key, ts, value: (c + i + j) % 15 })),
        },
      });
    }
  }
  // Held back until every worker is up: their start-up (tsx compiling) is not the measurement.
  await execute(db, `UPDATE evaluation_queue SET claimed_until = 'infinity' WHERE organization_id = $1`, [org]);
  const started = await Promise.all(Array.from({ length: workers }, () => spawnWorker(db.url)));
  try {
    for (let waited = 0; (await workerConnections(db)) < workers; waited += 200) {
      if (waited > 120_000) throw new Error(`${workers} workers did not connect within 120 s`);
      await sleep(200);
    }
    await sleep(1000);
    const t0 = performance.now();
    await execute(db, `UPDATE evaluation_queue SET claimed_until = NULL WHERE organization_id = $1`, [org]);
    while ((await queued(db, org)) > 0) await sleep(50);
    const seconds = (performance.now() - t0) / 1000;
    const points = n * cycles;
    const figures = { workers, points, seconds: Math.round(seconds * 100) / 100, evaluationsPerSecond: Math.round(points / seconds) };
    log(JSON.stringify(figures));
    return figures;
  } finally {
    await Promise.all(started.map(stopWorker));
    await execute(db, `DELETE FROM organizations WHERE id = $1`, [org]);
  }
}

export const scenario: BenchScenario = {
  name: "scale",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("needs a database");
    const n = Number(process.env.BENCH_JOBS ?? 3000);
    const cycles = Number(process.env.BENCH_CYCLES ?? 20);
    const runs = [];
    for (const workers of WORKER_COUNTS) runs.push(await runWith(db, workers, n, cycles, log));
    const one = runs[0]!.evaluationsPerSecond;
    return {
      shards: EVALUATION_SHARDS,
      jobs: n,
      cycles,
      runs,
      speedupOverOneWorker: Object.fromEntries(runs.map((r) => [r.workers, Math.round((r.evaluationsPerSecond / one) * 100) / 100])),
      cores: (await import("node:os")).cpus().length,
    };
  },
};
