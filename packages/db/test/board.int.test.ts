import type { Database } from "@tidemark/db/client";
import { countBoardStates, ensureSeries, insertPoints, listBoard } from "@tidemark/db/metrics";
import { createOrgWithItems, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOf } from "../src/database.ts";

let db: Database;
let org: string;
const now = new Date(Date.UTC(2026, 10, 24, 12, 0));
const HOUR = 3_600_000;

beforeAll(async () => {
  db = await testDatabase();
  // a: CRITICAL, b: OK, c: WARNING, d: never evaluated, e: CRITICAL.
  org = await createOrgWithItems(
    db,
    ["a", "b", "c", "d", "e"].map((name) => ({ name })),
  );
  const ids = await ensureSeries(db, org, ["h-s-a", "h-s-b", "h-s-c", "h-s-e"]);
  const states: [string, string][] = [
    ["h-s-a", "CRITICAL"],
    ["h-s-b", "OK"],
    ["h-s-c", "WARNING"],
    ["h-s-e", "CRITICAL"],
  ];
  for (const [key, state] of states)
    await poolOf(db).query(
      `INSERT INTO item_states (organization_id, series_id, ts, state, hard_state, soft_count) VALUES ($1, $2, $3, $4, $4, 0)`,
      [org, ids.get(key), now, state],
    );
  // b: a point in each of the last 24 hours, value = the hour's index; its last point 30 min ago.
  await insertPoints(
    db,
    Array.from({ length: 24 }, (_, slot) => ({
      seriesId: ids.get("h-s-b")!,
      ts: new Date(now.getTime() - 24 * HOUR + slot * HOUR + 30 * 60_000),
      value: slot,
    })),
  );
});
afterAll(async () => db.close());

const keys = (rows: { seriesKey: string }[]) => rows.map((r) => r.seriesKey);

describe("the overview's board", () => {
  it("puts problems first, then OK, then items never evaluated, and pages through them in that order", async () => {
    const first = await listBoard(db, org, { states: [], sort: "state", limit: 2, now });
    expect(keys(first.rows)).toEqual(["h-s-a", "h-s-e"]);
    const second = await listBoard(db, org, { states: [], sort: "state", limit: 2, now, after: first.next });
    expect(keys(second.rows)).toEqual(["h-s-c", "h-s-b"]);
    const third = await listBoard(db, org, { states: [], sort: "state", limit: 2, now, after: second.next });
    expect(third.rows.map((r) => [r.seriesKey, r.state])).toEqual([["h-s-d", "NONE"]]);
    expect(third.next).toBeNull();
  });

  it("filters by state and sorts by key when asked", async () => {
    expect(keys((await listBoard(db, org, { states: ["CRITICAL", "NONE"], sort: "key", limit: 10, now })).rows)).toEqual([
      "h-s-a",
      "h-s-d",
      "h-s-e",
    ]);
    expect(keys((await listBoard(db, org, { states: [], sort: "key", limit: 10, now, search: "s-c" })).rows)).toEqual(["h-s-c"]);
  });

  it("gives each row its last value with its time and 24 hourly means", async () => {
    const { rows } = await listBoard(db, org, { states: ["OK"], sort: "state", limit: 10, now });
    expect(rows[0]?.lastValue).toBe(23);
    expect(rows[0]?.lastTs).toEqual(new Date(now.getTime() - 30 * 60_000));
    expect(rows[0]?.spark).toEqual(Array.from({ length: 24 }, (_, i) => i));
    const { rows: none } = await listBoard(db, org, { states: ["NONE"], sort: "state", limit: 10, now });
    expect(none[0]?.spark).toEqual([]);
  });

  it("counts the items in each state", async () => {
    expect(await countBoardStates(db, org)).toEqual({ CRITICAL: 2, WARNING: 1, UNKNOWN: 0, OK: 1, NONE: 1 });
  });
});
