import type { Database } from "@tidemark/db/client";
import { ensureSeries, ingestBatch } from "@tidemark/db/metrics";
import { createOrgWithItems, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * A large new organisation is known to the planner as soon as its bulk writes commit
 * (analyzeAfterBulkWrite in src/statistics.ts). Statistics taken before it exist know nothing
 * of it, so the planner expects a row or so of it in each table and joins as if it were one:
 * minutes for the worker at 30 000 hosts (docs/scaling.md, "Eleventh round").
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

/** The planner's estimate of the organisation's rows in `table`. */
async function estimatedRows(table: string, organizationId: string): Promise<number> {
  const [row] = await queryRows<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    db,
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE organization_id = $1`,
    [organizationId],
  );
  return row!["QUERY PLAN"][0].Plan["Plan Rows"];
}

const ITEMS = 1200;
const keys = Array.from({ length: ITEMS }, (_, i) => `h-s-v${i}`);

/** The two ways an organisation's series come to be: the worker's configuration read, or its first points. */
const seriesCreators: [string, (organizationId: string) => Promise<unknown>][] = [
  ["the worker's configuration read (ensureSeries)", (organizationId) => ensureSeries(db, organizationId, keys)],
  [
    "its first ingested batch",
    (organizationId) =>
      ingestBatch(db, {
        organizationId,
        agentId: null,
        batch: { batchId: `first-${organizationId}`, results: keys.map((key) => ({ key, ts: Date.UTC(2026, 0, 1), value: 1 })) },
      }),
  ],
];

describe("a large new organisation and the planner's statistics", () => {
  it.each(seriesCreators)(
    "its import, first deployment and series (created by %s) are each analysed once they commit",
    async (_, createSeries) => {
      // Statistics taken before the organisation exists, as autovacuum's last round left them.
      await execute(db, "ANALYZE service_items, deployed_items, series");
      const organizationId = await createOrgWithItems(
        db,
        Array.from({ length: ITEMS }, (_, i) => ({ name: `v${i}` })),
      );
      await createSeries(organizationId);
      expect(await queryRows(db, "SELECT count(*)::int AS n FROM series WHERE organization_id = $1", [organizationId])).toEqual([
        { n: ITEMS },
      ]);
      // ANALYZE samples; without it the estimate is a handful of rows.
      for (const table of ["service_items", "deployed_items", "series"])
        expect(await estimatedRows(table, organizationId), table).toBeGreaterThan(ITEMS / 2);
    },
  );
});
