import { type Database, explainConnectionError } from "@tidemark/db/client";
import { ensureSeries, insertPoints, readSeriesWindow, refreshAggregates } from "@tidemark/db/metrics";
import { createTestOrg, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOf } from "../src/database.ts";
import { databaseInfo } from "../src/database-kind.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const expectedKind = process.env.TIDEMARK_EXPECT_DB_KIND;

describe("time-series storage", () => {
  it("is the kind of database this run expects, with the matching objects", async () => {
    const info = await databaseInfo(poolOf(db));
    if (expectedKind) expect(info.kind).toBe(expectedKind);
    const { rows } = await poolOf(db).query<{ name: string; kind: string }>(
      `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relname IN ('metric_points', 'state_changes', 'metric_5m', 'metric_1h')`,
    );
    const names = rows.map((r) => r.name).sort();
    expect(names).toEqual(["metric_1h", "metric_5m", "metric_points", "state_changes"]);
    if (info.kind === "timescaledb") {
      const hypertables = await poolOf(db).query(`SELECT hypertable_name FROM timescaledb_information.hypertables ORDER BY 1`);
      expect(hypertables.rows.map((r) => r.hypertable_name)).toEqual(expect.arrayContaining(["metric_points", "state_changes"]));
      const caggs = await poolOf(db).query(`SELECT view_name FROM timescaledb_information.continuous_aggregates ORDER BY 1`);
      expect(caggs.rows.map((r) => r.view_name)).toEqual(["metric_1h", "metric_5m"]);
      const jobs = await poolOf(db).query(`SELECT proc_name, hypertable_name FROM timescaledb_information.jobs WHERE job_id >= 1000`);
      const procs = jobs.rows.map((r) => r.proc_name);
      expect(procs).toEqual(expect.arrayContaining(["policy_refresh_continuous_aggregate", "policy_compression", "policy_retention"]));
    } else {
      expect(rows.find((r) => r.name === "metric_5m")?.kind).toBe("v");
    }
  });

  it("stores points once, and reads them raw, per 5 minutes and per hour with min and max kept", async () => {
    const { organization } = await createTestOrg(db);
    const ids = await ensureSeries(db, organization.id, ["h-s-i", "h-s-i", "other-s-i"]);
    expect(ids.size).toBe(2);
    const seriesId = ids.get("h-s-i")!;
    const start = Date.UTC(2026, 0, 5, 0, 0, 0); // a Monday, on an hour boundary
    const points = Array.from({ length: 3 * 24 * 60 }, (_, i) => ({
      seriesId,
      ts: new Date(start + i * 60_000),
      value: i % 60 === 30 ? 1000 : i % 60, // one spike per hour at :30
    }));
    expect(await insertPoints(db, points)).toBe(points.length);
    expect(await insertPoints(db, points.slice(0, 100))).toBe(0); // a retried write stores nothing twice
    await refreshAggregates(db);

    const raw = await readSeriesWindow(db, organization.id, seriesId, new Date(start), new Date(start + 3_600_000));
    expect(raw.resolution).toBe("raw");
    expect(raw.points).toHaveLength(60);
    expect(raw.points[30]).toEqual({ ts: start + 30 * 60_000, avg: 1000, min: 1000, max: 1000 });

    const fiveMin = await readSeriesWindow(db, organization.id, seriesId, new Date(start), new Date(start + 3 * 86_400_000));
    expect(fiveMin.resolution).toBe("5m");
    expect(fiveMin.points).toHaveLength(3 * 24 * 12);
    const withSpike = fiveMin.points[6]!; // 00:30–00:35
    expect(withSpike.ts).toBe(start + 30 * 60_000);
    expect(withSpike.max).toBe(1000);
    expect(withSpike.min).toBe(31);

    const hourly = await readSeriesWindow(db, organization.id, seriesId, new Date(start), new Date(start + 25 * 86_400_000));
    expect(hourly.resolution).toBe("1h");
    expect(hourly.points).toHaveLength(72);
    expect(hourly.points[0]).toMatchObject({ ts: start, max: 1000, min: 0 });
    expect(hourly.points[0]!.avg).toBeCloseTo((59 * 60) / 2 / 60 - 30 / 60 + 1000 / 60, 6);
  });

  it("never returns another organisation's series", async () => {
    const a = await createTestOrg(db);
    const b = await createTestOrg(db);
    const idsA = await ensureSeries(db, a.organization.id, ["x-y-z"]);
    await insertPoints(db, [{ seriesId: idsA.get("x-y-z")!, ts: new Date(Date.UTC(2026, 0, 5)), value: 1 }]);
    const fromB = await readSeriesWindow(
      db,
      b.organization.id,
      idsA.get("x-y-z")!,
      new Date(Date.UTC(2026, 0, 4)),
      new Date(Date.UTC(2026, 0, 6)),
    );
    expect(fromB.points).toEqual([]);
  });

  it("index-backed lookups: the newest point of a series is found without scanning it", async () => {
    const { rows } = await poolOf(db).query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT ts, value FROM metric_points WHERE series_id = 1 ORDER BY ts DESC LIMIT 10`,
    );
    const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/Index (Only )?Scan/);
    expect(plan).not.toMatch(/Seq Scan on metric_points/);
  });
});

describe("connection errors are one sentence with what to do", () => {
  it.each([
    [{ code: "ECONNREFUSED" }, /nothing is listening at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: start the database/],
    [{ code: "28P01" }, /refused the user or password/],
    [{ code: "3D000" }, /does not exist: create it/],
    [{ code: "42501", message: "permission denied for schema public" }, /lacks permission .*grant it CREATE/],
  ])("%o", (error, expected) => {
    const explained = explainConnectionError(error, "postgres://u:secret@127.0.0.1:1/db");
    expect(explained.message).toMatch(expected);
    expect(explained.message).not.toContain("secret");
  });
});
