import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";
import { queryRows, testPrisma, writePointsRaw } from "@tidemark/db/testing";
import type { Configuration } from "@tidemark/model";
import { ensureWebBuild } from "../../scripts/lib/build.ts";
import { freePort } from "../../scripts/lib/ports.ts";
import { waitForHttp } from "../../scripts/lib/processes.ts";
import { webServerCommand } from "../../scripts/lib/web-server.ts";
import { benchOrganization, importBench } from "../lib/fixtures.ts";
import { postgresServerCpuMs } from "../lib/server-cpu.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * Points per second end to end: agents' HTTP batches through the real ingest endpoint (Next.js,
 * token check, zod, idempotent batch, points + evaluation queue in one transaction) into the
 * hypertable, against the raw write rate of the same points straight into the table measured
 * in the same run (multi-row INSERT on the embedded server, COPY on real PostgreSQL). The two
 * are measured back to back in three rounds and the median round's ratio is reported: on this
 * 2-vCPU VM a single pair varied from 0.63 to 1.13.
 */
const SERIES = 100;
const BATCH = 1000;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 150);
const CONCURRENCY = 4;
/** End to end and raw measured back to back this many times; the ratio reported is the median round's. */
const ROUNDS = 3;
/** Each round's points are this much later than the previous round's. */
const ROUND_SPAN_MS = ((BATCHES * BATCH) / SERIES) * 1000 + 60_000;

function configuration(): Configuration {
  return {
    hosts: Array.from({ length: SERIES }, (_, i) => ({
      name: `node${i}`,
      alias: null,
      description: "",
      services: [
        {
          name: "cpu",
          description: "",
          schedules: ["10S"],
          url: "shell://localhost",
          sendServiceData: true,
          items: [
            {
              name: "load",
              description: "",
              execStatement: "x",
              thresholdClass: null,
              serviceItemClass: null,
              cacheMaxCount: null,
              policy: null,
            },
          ],
        },
      ],
    })),
  };
}

async function rawWrite(db: Database, organizationId: string, seriesIds: number[], points: number, t0: number): Promise<number> {
  const rows = Array.from({ length: points }, (_, i) => ({
    seriesId: seriesIds[i % seriesIds.length]!,
    ts: new Date(t0 + Math.floor(i / seriesIds.length) * 1000),
    value: i,
  }));
  const start = performance.now();
  await writePointsRaw(db, organizationId, rows, BATCH);
  return rows.length / ((performance.now() - start) / 1000);
}

export const scenario: BenchScenario = {
  name: "ingest",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("needs a database");
    const org = await benchOrganization(db);
    await importBench(db, org, configuration());
    const token = `tm_agent_${randomBytes(32).toString("base64url")}`;
    await testPrisma(db).agent.create({
      data: {
        organizationId: org,
        name: "bench",
        tokenPrefix: token.slice(0, 16),
        tokenHash: createHash("sha256").update(token).digest("hex"),
      },
    });
    const keys = Array.from({ length: SERIES }, (_, i) => `node${i}-cpu-load`);

    await ensureWebBuild(log);
    const port = await freePort();
    const command = webServerCommand(port, { ...process.env, DATABASE_URL: db.url });
    const web: ChildProcess = spawn(command.command, command.args, { cwd: command.cwd, env: command.env, stdio: "ignore" });
    try {
      await waitForHttp(`http://127.0.0.1:${port}/api/health`, 60_000);
      const t0 = Date.UTC(2026, 0, 1);
      const body = (round: number, b: number) =>
        JSON.stringify({
          batchId: `bench-batch-${round}-${b}`,
          results: Array.from({ length: BATCH }, (_, i) => ({
            key: keys[i % SERIES]!,
            ts: t0 + round * ROUND_SPAN_MS + (b * (BATCH / SERIES) + Math.floor(i / SERIES)) * 1000,
            value: i,
          })),
        });
      const post = (round: number, b: number) =>
        fetch(`http://127.0.0.1:${port}/api/ingest`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body(round, b),
        });
      await post(-1, 0); // warm the route
      let acknowledged = 0;
      let failedRequests = 0;
      const rawIds = [
        ...(
          await ensureSeries(
            db,
            org,
            keys.map((k) => `raw-${k}`),
          )
        ).values(),
      ];
      const rounds: { endToEnd: number; raw: number; ratio: number; serverCpuPercent: number | null }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let next = 0;
        const server0 = db.info.embedded ? 0 : postgresServerCpuMs();
        const started = performance.now();
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < BATCHES) {
              const b = next++;
              const response = await post(round, b);
              if (response.ok) {
                const { accepted } = (await response.json()) as { accepted: number };
                acknowledged += accepted;
              } else {
                failedRequests++;
                if (failedRequests <= 3) log(`ingest: HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
              }
            }
          }),
        );
        const seconds = (performance.now() - started) / 1000;
        const serverCpuMs = db.info.embedded ? null : postgresServerCpuMs() - server0;
        const endToEnd = (BATCHES * BATCH) / seconds;
        const raw = await rawWrite(db, org, rawIds, BATCHES * BATCH, t0 + round * ROUND_SPAN_MS);
        rounds.push({
          endToEnd: Math.round(endToEnd),
          raw: Math.round(raw),
          ratio: Math.round((endToEnd / raw) * 100) / 100,
          serverCpuPercent: serverCpuMs === null ? null : Math.round((serverCpuMs / (seconds * 1000)) * 1000) / 10,
        });
        log(`ingest round ${round + 1}: ${Math.round(endToEnd)} points/s end to end, raw ${Math.round(raw)} points/s`);
      }
      const rows = await queryRows(
        db,
        `SELECT count(*)::int AS n FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1 AND p.ts >= $2 AND s.key NOT LIKE 'raw-%'`,
        [org, new Date(t0)],
      );
      const sent = ROUNDS * BATCHES * BATCH;
      const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(ROUNDS / 2)]!;
      return {
        pointsSent: sent,
        pointsAcknowledged: acknowledged,
        pointsStored: rows[0].n,
        lost: sent - rows[0].n,
        failedRequests,
        batchSize: BATCH,
        concurrentAgents: CONCURRENCY,
        rawWrite: db.info.embedded ? "multi-row INSERT (unnest), batches of 1000" : "COPY, batches of 1000",
        rounds,
        endToEndPointsPerSecond: median.endToEnd,
        rawPointsPerSecond: median.raw,
        ratioToRaw: median.ratio,
        postgresServerCpuPercentOfOneCore: median.serverCpuPercent ?? "inside the web process",
      };
    } finally {
      web.kill("SIGTERM");
    }
  },
};
