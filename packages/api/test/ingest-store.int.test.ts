import { KnownIngestSeries, storeIngestBatch } from "@tidemark/api/http";
import type { Database } from "@tidemark/db/client";
import { createOrgWithItems, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** An agent's batch stored by series id once this process knows the organisation's series, with the answers and rows of the ingest by key. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 5, 1, 12);
let ts = T0;

/** Sends the keys' results (one each, a second after the last batch's) as an agent's batch. */
const sender =
  (organizationId: string, series: KnownIngestSeries) =>
  (keys: string[], batchId = `b-${crypto.randomUUID()}`) => {
    ts += 1000;
    const results = keys.map((key, i) => ({ key, ts, value: i, status: 0, output: `"${key}", \\ok` }));
    return storeIngestBatch(db, { organizationId, agentId: null, batch: { batchId, results } }, series);
  };

describe("an agent's batch by series id", () => {
  it("stores and queues as by key, learns new series, never reads again for keys that stay unknown, and follows the draft", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }, { name: "b" }, { name: "c" }]);
    const series = new KnownIngestSeries(db);
    const send = sender(org, series);
    const knownKeys = async () => {
      const known = await series.whenRead(org);
      return known && "seriesIdByKey" in known ? [...known.seriesIdByKey.keys()].sort() : known;
    };

    // Nothing known yet: by key, then the series are read (c has none yet).
    expect(await send(["h-s-a", "h-s-b"])).toMatchObject({ accepted: 2, duplicate: false, unknownSeries: [] });
    expect(await knownKeys()).toEqual(["h-s-a", "h-s-b"]);
    // By series id, once per batch id.
    expect(await send(["h-s-a", "h-s-b"], "b-resent")).toEqual({ batchId: "b-resent", accepted: 2, duplicate: false, unknownSeries: [] });
    expect(await send(["h-s-a", "h-s-b"], "b-resent")).toEqual({ batchId: "b-resent", accepted: 0, duplicate: true, unknownSeries: [] });
    // A key without a series goes by key, which creates it; the series are read again.
    expect(await send(["h-s-a", "h-s-c"])).toMatchObject({ accepted: 2, unknownSeries: [] });
    expect(await knownKeys()).toEqual(["h-s-a", "h-s-b", "h-s-c"]);
    // A key no item has: reported, and nothing read again for it.
    const known = await series.whenRead(org);
    expect(await send(["h-s-a", "h-s-nope"])).toMatchObject({ accepted: 1, unknownSeries: ["h-s-nope"] });
    expect(await series.whenRead(org)).toBe(known);
    // An item removed from the draft: refused as by key, though this process knew its series.
    await execute(db, "DELETE FROM service_items WHERE organization_id = $1 AND series_key = 'h-s-b'", [org]);
    expect(await send(["h-s-a", "h-s-b"])).toMatchObject({ accepted: 1, unknownSeries: ["h-s-b"] });
    expect(await knownKeys()).toEqual(["h-s-a", "h-s-c"]);
    expect(await send(["h-s-a", "h-s-c"])).toMatchObject({ accepted: 2, unknownSeries: [] });

    const rows = await queryRows<{ key: string; n: number; outputs: string[] }>(
      db,
      `SELECT s.key, count(*)::int AS n, array_agg(DISTINCT p.output) AS outputs FROM metric_points p JOIN series s ON s.id = p.series_id
       WHERE p.organization_id = $1 GROUP BY s.key ORDER BY s.key`,
      [org],
    );
    expect(rows.map((r) => [r.key, r.n, r.outputs])).toEqual([
      ["h-s-a", 6, ['"h-s-a", \\ok']],
      ["h-s-b", 2, ['"h-s-b", \\ok']],
      ["h-s-c", 2, ['"h-s-c", \\ok']],
    ]);
    const [queued] = await queryRows<{ n: number }>(
      db,
      "SELECT coalesce(sum(cardinality(series_ids)), 0)::int AS n FROM evaluation_queue WHERE organization_id = $1",
      [org],
    );
    expect(queued!.n).toBe(10);
  });

  it("an organisation with more series than this process keeps goes by key, without counting them again at every batch", async () => {
    const org = await createOrgWithItems(db, [{ name: "a" }, { name: "b" }, { name: "c" }]);
    const series = new KnownIngestSeries(db, 2);
    const send = sender(org, series);
    expect(await send(["h-s-a", "h-s-b", "h-s-c"])).toMatchObject({ accepted: 3, unknownSeries: [] });
    const counted = await series.whenRead(org);
    expect(counted).toEqual({ tooMany: true });
    expect(await send(["h-s-a", "h-s-b", "h-s-c", "h-s-nope"])).toMatchObject({ accepted: 3, unknownSeries: ["h-s-nope"] });
    expect(await send(["h-s-a"])).toMatchObject({ accepted: 1, unknownSeries: [] });
    expect(series.get(org)).toBe(counted);
  });
});
