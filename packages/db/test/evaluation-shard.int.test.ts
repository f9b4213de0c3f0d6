import type { Database } from "@tidemark/db/client";
import { EVALUATION_SHARDS, queueMadeUpResults, queueStoredPoints } from "@tidemark/db/evaluation";
import { ensureSeries, ingestBatch } from "@tidemark/db/metrics";
import { createOrgWithItems, createTestOrg, execute, queryRows, seriesShards, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Issue 22: a series' evaluation shard follows its host (migration 20261125020000), so that the
// thresholds reading their own host's series ($$HOSTNAME$$) read within their shard.

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

/** Every queued row's shard with the shards of the series it holds. */
async function queuedRows(organizationId: string) {
  return queryRows<{ shard: number; series: number[] }>(
    db,
    `SELECT q.host_shard AS shard, array_agg(s.shard ORDER BY u.n) AS series
     FROM evaluation_queue q CROSS JOIN LATERAL unnest(q.series_ids) WITH ORDINALITY AS u(series_id, n)
     JOIN series s ON s.organization_id = q.organization_id AND s.id = u.series_id
     WHERE q.organization_id = $1 GROUP BY q.id, q.host_shard ORDER BY q.id`,
    [organizationId],
  );
}

describe("evaluation shards", () => {
  it("a host's series share a shard: the key's first part, up to its first unescaped '-'", async () => {
    const { organization } = await createTestOrg(db);
    const keys = ["web\\-1-http-time", "web\\-1-disk-free", "web\\-1-s-x", "web-1-http", "web-x-y"];
    await ensureSeries(db, organization.id, keys);
    const shards = await seriesShards(db, organization.id);
    // Host `web\-1` (escaped dash): one shard for its three series.
    expect(new Set(keys.slice(0, 3).map((key) => shards.get(key))).size).toBe(1);
    // Host `web`: the same shard for both, whatever follows.
    expect(shards.get("web-1-http")).toBe(shards.get("web-x-y"));
    // The escaped dash belongs to the host: cut there, `web\-1` would be host `web`, in web's shard.
    expect(shards.get("web-1-http")).not.toBe(shards.get("web\\-1-http-time"));
  });

  it("hosts spread over every shard", async () => {
    const { organization } = await createTestOrg(db);
    const hosts = 800;
    await ensureSeries(
      db,
      organization.id,
      Array.from({ length: hosts }, (_, i) => `host${i}-load-value`),
    );
    const counts = Array.from({ length: EVALUATION_SHARDS }, () => 0);
    for (const shard of (await seriesShards(db, organization.id)).values()) counts[shard]!++;
    // 100 a shard on average; a binomial(800, 1/8) stays within 65–135 all but once in a million.
    for (const count of counts) {
      expect(count).toBeGreaterThan(65);
      expect(count).toBeLessThan(135);
    }
  });

  it("ingest, stored points and made-up results are queued in their series' shard, a host's points in one row", async () => {
    const org = await createOrgWithItems(db, [
      { name: "a", host: "alpha" },
      { name: "b", host: "alpha" },
      { name: "c", host: "beta" },
      { name: "d", host: "gamma" },
    ]);
    const keys = ["alpha-s-a", "alpha-s-b", "beta-s-c", "gamma-s-d"];
    const t0 = Date.UTC(2026, 3, 1, 10);
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: keys.map((key, i) => ({ key, ts: t0, value: i })) },
    });
    const ids = await ensureSeries(db, org, keys);
    await queueStoredPoints(db, org, [...ids.values()], new Date(t0), new Date(t0 + 1000));
    await queueMadeUpResults(
      db,
      keys.map((key) => ({ organizationId: org, seriesId: ids.get(key)!, ts: t0 + 60_000, status: 3, output: "stale" })),
    );
    const shards = await seriesShards(db, org);
    const rows = await queuedRows(org);
    // Each of the three statements queued a row per distinct shard of the three hosts.
    const distinct = new Set(shards.values()).size;
    expect(rows).toHaveLength(3 * distinct);
    for (const row of rows) expect(row.series.every((shard) => shard === row.shard)).toBe(true);
    expect(shards.get("alpha-s-a")).toBe(shards.get("alpha-s-b"));
  });

  it("the version that queued by series_id % 8 is fenced out: its queue statements fail", async () => {
    // Its ingest and its claim, as it wrote them (migration 20261125030000 renamed the column):
    // a process of it still running through the upgrade changes nothing, and its agents resend.
    const { organization } = await createTestOrg(db);
    await expect(
      execute(
        db,
        `INSERT INTO evaluation_queue (organization_id, shard, series_ids, timestamps, "values") VALUES ($1, 0, '{1}', '{2026-04-01T10:00:00Z}', '{1}')`,
        [organization.id],
      ),
    ).rejects.toMatchObject({ code: "42703" });
    await expect(
      queryRows(db, `SELECT id FROM evaluation_queue WHERE organization_id = $1 AND shard = 0`, [organization.id]),
    ).rejects.toMatchObject({
      code: "42703",
    });
    expect(await queryRows(db, `SELECT id FROM evaluation_queue WHERE organization_id = $1`, [organization.id])).toEqual([]);
  });
});
