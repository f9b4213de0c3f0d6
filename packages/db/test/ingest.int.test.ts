import type { Database } from "@tidemark/db/client";
import { configurationRevision } from "@tidemark/db/evaluation";
import { COPY_FROM_POINTS, ingestBatch, ingestResolvedBatch, type ResolvedPoint } from "@tidemark/db/metrics";
import { createOrgWithItems, execute, queryRows, testDatabase, withConnection } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../../scripts/lib/route-server.ts";
import { poolOf } from "../src/database.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 4, 4, 12, 0, 0);

const orgWithItems = (names: string[], host?: string) =>
  createOrgWithItems(
    db,
    names.map((name) => ({ name })),
    host,
  );

/** The organisation's points, found by the organisation each point carries. */
async function stored(organizationId: string) {
  const { rows } = await poolOf(db).query<{ key: string; n: number; first: Date; last: Date; total: number | null }>(
    `SELECT s.key, count(*)::int AS n, min(p.ts) AS first, max(p.ts) AS last, sum(p.value) AS total
     FROM metric_points p JOIN series s ON s.id = p.series_id WHERE p.organization_id = $1 GROUP BY s.key ORDER BY s.key`,
    [organizationId],
  );
  const queued = await poolOf(db).query<{ n: number }>(
    `SELECT coalesce(sum(cardinality(series_ids)), 0)::int AS n FROM evaluation_queue WHERE organization_id = $1`,
    [organizationId],
  );
  return { series: rows, queued: queued.rows[0]!.n };
}

/** Resolves once an ingest statement of this database waits on a row lock (a new series another transaction holds). */
async function anIngestWaitsOnALock(): Promise<void> {
  await waitFor(
    "an ingest statement waiting on the series being created",
    async () => {
      const [row] = await queryRows<{ n: number }>(
        db,
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO series%'`,
      );
      return row!.n > 0;
    },
    10_000,
  );
}

describe("ingest", () => {
  // Small batches go in one statement; big ones through COPY on real PostgreSQL (the embedded
  // server takes the statement for both): each size must store, dedupe and report the same way.
  it.each([
    ["a small batch", 12],
    ["a batch big enough for COPY", COPY_FROM_POINTS + 100],
  ])("%s: stores every point of known series once, queues it, reports unknown keys, and a retry stores nothing", async (_, size) => {
    const org = await orgWithItems(["a", "b"]);
    const results = Array.from({ length: size }, (_, i) => ({
      key: i % 3 === 2 ? `nope-s-${i % 2}` : i % 3 === 0 ? "h-s-a" : "h-s-b",
      ts: T0 + i * 1000,
      value: i % 5 === 0 ? null : i,
      output: "plugin text is not stored",
    }));
    const batch = { batchId: `batch-${crypto.randomUUID()}`, results };
    const known = results.filter((r) => r.key.startsWith("h-"));
    const first = await ingestBatch(db, { organizationId: org, agentId: null, batch });
    expect(first).toEqual({ batchId: batch.batchId, accepted: known.length, duplicate: false, unknownSeries: ["nope-s-0", "nope-s-1"] });
    const again = await ingestBatch(db, { organizationId: org, agentId: null, batch });
    expect(again).toMatchObject({ accepted: 0, duplicate: true });

    const { series, queued } = await stored(org);
    expect(queued).toBe(known.length);
    const a = known.filter((r) => r.key === "h-s-a");
    expect(series.map((s) => [s.key, s.n, s.first.getTime(), s.last.getTime()])).toEqual([
      ["h-s-a", a.length, a[0]!.ts, a.at(-1)!.ts],
      ["h-s-b", known.length - a.length, T0 + 1000, known.filter((r) => r.key === "h-s-b").at(-1)!.ts],
    ]);
    expect(series[0]!.total).toBe(a.reduce((sum, r) => sum + (r.value ?? 0), 0));
  });

  it.each([
    ["a small batch", 10],
    ["a batch big enough for COPY", COPY_FROM_POINTS + 10],
  ])("%s re-sending points already stored under another batch id stores and queues only the new ones", async (_, size) => {
    const org = await orgWithItems(["a"]);
    const point = (i: number) => ({ key: "h-s-a", ts: T0 + i * 1000, value: i });
    const send = (results: ReturnType<typeof point>[]) =>
      ingestBatch(db, { organizationId: org, agentId: null, batch: { batchId: `batch-${crypto.randomUUID()}`, results } });
    expect(await send([point(0), point(1)])).toMatchObject({ accepted: 2, duplicate: false });
    // The same point twice within the batch, and two stored by the first one.
    const again = Array.from({ length: size }, (_, i) => point(i));
    again.push(point(size - 1));
    expect(await send(again)).toMatchObject({ accepted: size - 2, duplicate: false });
    const { series, queued } = await stored(org);
    expect(series.map((s) => [s.key, s.n])).toEqual([["h-s-a", size]]);
    expect(queued).toBe(size);
  });

  it.each([
    ["in one statement", 3],
    ["through COPY", COPY_FROM_POINTS],
  ])("a key with an escaped dash (host web-01) is stored %s", async (_, size) => {
    const org = await orgWithItems(["a"], "web-01");
    const key = String.raw`web\-01-s-a`;
    const results = Array.from({ length: size }, (_, i) => ({ key, ts: T0 + i * 1000, value: i }));
    const answer = await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `batch-${crypto.randomUUID()}`, results },
    });
    expect(answer).toMatchObject({ accepted: size, unknownSeries: [] });
    expect((await stored(org)).series.map((s) => [s.key, s.n])).toEqual([[key, size]]);
  });

  it("a new series' first points arriving in concurrent batches are all stored", async () => {
    const org = await orgWithItems(["fresh"]);
    const batches = Array.from({ length: 6 }, (_, b) => ({
      batchId: `batch-${crypto.randomUUID()}`,
      results: Array.from({ length: 5 }, (_, i) => ({ key: "h-s-fresh", ts: T0 + (b * 5 + i) * 1000, value: b * 5 + i })),
    }));
    const answers = await Promise.all(batches.map((batch) => ingestBatch(db, { organizationId: org, agentId: null, batch })));
    expect(answers.map((a) => a.accepted)).toEqual([5, 5, 5, 5, 5, 5]);
    const { series } = await stored(org);
    expect(series).toHaveLength(1);
    expect(series[0]!.n).toBe(30);
  });

  it("a batch whose series another transaction is creating waits for it, goes again, and stores every point", async () => {
    const org = await orgWithItems(["fresh"]);
    const results = Array.from({ length: 5 }, (_, i) => ({ key: "h-s-fresh", ts: T0 + i * 1000, value: i }));
    const answer = await withConnection(db, async (query) => {
      await query("BEGIN");
      await query("INSERT INTO series (organization_id, key) VALUES ($1, 'h-s-fresh')", [org]);
      const ingest = ingestBatch(db, { organizationId: org, agentId: null, batch: { batchId: `batch-${crypto.randomUUID()}`, results } });
      // The batch's statement does not see the series and waits on it as it creates its own (on
      // the embedded server, which serves one transaction at a time, it waits to start instead).
      if (!db.info.embedded) await anIngestWaitsOnALock();
      await query("COMMIT");
      return ingest;
    });
    expect(answer).toMatchObject({ accepted: 5, duplicate: false, unknownSeries: [] });
    const { series, queued } = await stored(org);
    expect(series.map((s) => [s.key, s.n])).toEqual([["h-s-fresh", 5]]);
    expect(queued).toBe(5);
  });
});

describe("ingest of series the caller resolved (the worker's calculations)", () => {
  /** An organisation whose items a, b have a series each (stored by key first), their ids by key and its revision. */
  async function resolvedOrganization() {
    const org = await orgWithItems(["a", "b"]);
    const results = ["h-s-a", "h-s-b"].map((key) => ({ key, ts: T0 - 60_000, value: 0 }));
    await ingestBatch(db, { organizationId: org, agentId: null, batch: { batchId: `batch-${crypto.randomUUID()}`, results } });
    await execute(db, "DELETE FROM evaluation_queue WHERE organization_id = $1", [org]);
    const rows = await queryRows<{ key: string; id: string }>(db, "SELECT key, id::text FROM series WHERE organization_id = $1", [org]);
    const ids = new Map(rows.map((r) => [r.key, Number(r.id)]));
    return { org, ids, revision: await configurationRevision(db, org) };
  }

  /** The organisation's queued points, as the evaluator claims them: key, ts, value, status, output. */
  async function queuedPoints(organizationId: string) {
    const rows = await queryRows<{ key: string; ts: Date; value: number | null; status: number | null; output: string | null }>(
      db,
      `SELECT s.key, to_timestamp(q.ms / 1000.0) AS ts, q.value, q.status, q.output
       FROM evaluation_queue e,
            unnest(e.series_ids, e.timestamps_ms, e."values", coalesce(e.statuses, array_fill(NULL::int, ARRAY[cardinality(e.series_ids)])),
                   coalesce(e.outputs, array_fill(NULL::text, ARRAY[cardinality(e.series_ids)]))) AS q(series_id, ms, value, status, output)
       JOIN series s ON s.id = q.series_id
       WHERE e.organization_id = $1 ORDER BY s.key, q.ms`,
      [organizationId],
    );
    return rows.map((r) => [r.key, r.ts.getTime(), r.value, r.status, r.output]);
  }

  const results = [
    { key: "h-s-a", ts: T0, value: 1.5, status: 0, output: 'OK "quoted" \\ and, a comma' },
    { key: "h-s-b", ts: T0, value: null },
    { key: "h-s-a", ts: T0 + 1000, value: -2, status: 2 },
  ];
  const pointsOf = (ids: Map<string, number>): ResolvedPoint[] => results.map(({ key, ...rest }) => ({ seriesId: ids.get(key)!, ...rest }));

  it("stores and queues exactly what the same batch by key does, once per batch id", async () => {
    const byKey = await resolvedOrganization();
    const byId = await resolvedOrganization();
    await ingestBatch(db, { organizationId: byKey.org, agentId: null, batch: { batchId: "batch-resolved-1", results } });
    const input = {
      organizationId: byId.org,
      agentId: null,
      batchId: "batch-resolved-1",
      revision: byId.revision,
      points: pointsOf(byId.ids),
    };
    expect(await ingestResolvedBatch(db, input)).toEqual({ accepted: 3, duplicate: false });
    expect(await ingestResolvedBatch(db, input)).toEqual({ accepted: 0, duplicate: true });
    expect(await queuedPoints(byId.org)).toEqual(await queuedPoints(byKey.org));
    expect((await queuedPoints(byId.org))[0]).toEqual(["h-s-a", T0, 1.5, 0, 'OK "quoted" \\ and, a comma']);
    const pointsOfOrg = (org: string) =>
      queryRows(
        db,
        `SELECT s.key, p.ts, p.value, p.status, p.output FROM metric_points p JOIN series s ON s.id = p.series_id
         WHERE p.organization_id = $1 ORDER BY s.key, p.ts`,
        [org],
      );
    expect(await pointsOfOrg(byId.org)).toEqual(await pointsOfOrg(byKey.org));
  });

  it("re-sent points already stored under another batch id: stores and queues only the new ones", async () => {
    const { org, ids, revision } = await resolvedOrganization();
    const send = (points: ResolvedPoint[]) =>
      ingestResolvedBatch(db, { organizationId: org, agentId: null, batchId: `batch-${crypto.randomUUID()}`, revision, points });
    const points = pointsOf(ids);
    expect(await send(points.slice(0, 1))).toEqual({ accepted: 1, duplicate: false });
    expect(await send(points)).toEqual({ accepted: 2, duplicate: false });
    expect((await queuedPoints(org)).length).toBe(3);
  });

  it("stores nothing and answers null once the configuration changed since the revision, or for another organisation's series", async () => {
    const { org, ids, revision } = await resolvedOrganization();
    const other = await resolvedOrganization();
    const send = (organizationId: string, rev: string, points: ResolvedPoint[]) =>
      ingestResolvedBatch(db, { organizationId, agentId: null, batchId: `batch-${crypto.randomUUID()}`, revision: rev, points });
    // Another organisation's series among the points, under the organisation's own revision.
    expect(await send(org, revision, [...pointsOf(ids), { seriesId: other.ids.get("h-s-a")!, ts: T0, value: 1 }])).toBeNull();
    // An item removed from the draft: the revision moves on, and the key would be refused as unknown.
    await execute(db, "DELETE FROM service_items WHERE organization_id = $1 AND series_key = 'h-s-b'", [org]);
    expect(await configurationRevision(db, org)).not.toBe(revision);
    expect(await send(org, revision, pointsOf(ids))).toBeNull();
    expect(await queuedPoints(org)).toEqual([]);
    expect((await stored(org)).series.map((s) => [s.key, s.n])).toEqual([
      ["h-s-a", 1],
      ["h-s-b", 1],
    ]);
    expect((await stored(other.org)).series.map((s) => [s.key, s.n])).toEqual([
      ["h-s-a", 1],
      ["h-s-b", 1],
    ]);
  });
});
