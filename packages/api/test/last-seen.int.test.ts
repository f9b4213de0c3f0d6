import type { Database } from "@tidemark/db/client";
import { ingestBatch } from "@tidemark/db/metrics";
import { createOrgWithItems, execute, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";

/** Where values are returned, their age (the last point's time) and the plugin's last word come with them. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

it("lists items with their last value, its time, exit code and output, and a series window with its last-seen time", async () => {
  const org = await createOrgWithItems(db, [{ name: "load" }]);
  const { caller } = await signedInMember(db, "viewer", org);
  const ts = Date.now() - 90_000;
  await ingestBatch(db, {
    organizationId: org,
    agentId: null,
    batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: "h-s-load", ts, value: 2.5, status: 1, output: "WARNING - load 2.5" }] },
  });
  const { rows } = await caller.dashboard.items({});
  expect(rows[0]).toMatchObject({ lastValue: 2.5, lastTs: new Date(ts), lastStatus: 1, lastOutput: "WARNING - load 2.5" });
  const window = await caller.dashboard.series({ seriesId: rows[0]!.seriesId!, from: new Date(ts - 60_000), to: new Date() });
  expect(window.lastSeenAt).toEqual(new Date(ts));
  // A newer point moves the last-seen time; an older one arriving late does not.
  for (const at of [ts + 30_000, ts - 30_000])
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: "h-s-load", ts: at, value: 1 }] },
    });
  const later = await caller.dashboard.series({ seriesId: rows[0]!.seriesId!, from: new Date(ts - 60_000), to: new Date() });
  expect(later.lastSeenAt).toEqual(new Date(ts + 30_000));
  // Nothing here evaluates: leave no queued work for the worker tests sharing this database.
  await execute(db, `DELETE FROM evaluation_queue WHERE organization_id = $1`, [org]);
});

it("lists the last value of an item silent for days as well as of one that reported a minute ago", async () => {
  const org = await createOrgWithItems(db, [{ name: "load" }, { name: "disk" }]);
  const { caller } = await signedInMember(db, "viewer", org);
  const now = Date.now();
  const threeDaysAgo = now - 3 * 24 * 3600_000;
  const results = [
    { key: "h-s-disk", ts: threeDaysAgo - 60_000, value: 70 },
    { key: "h-s-disk", ts: threeDaysAgo, value: 71, status: 0, output: "DISK OK" },
    { key: "h-s-load", ts: now - 60_000, value: 0.5 },
  ];
  await ingestBatch(db, { organizationId: org, agentId: null, batch: { batchId: `b-${crypto.randomUUID()}`, results } });
  const { rows } = await caller.dashboard.items({});
  const byKey = new Map(rows.map((r) => [r.seriesKey, r]));
  expect(byKey.get("h-s-disk")).toMatchObject({ lastValue: 71, lastTs: new Date(threeDaysAgo), lastStatus: 0, lastOutput: "DISK OK" });
  expect(byKey.get("h-s-load")).toMatchObject({ lastValue: 0.5, lastTs: new Date(now - 60_000) });
  await execute(db, `DELETE FROM evaluation_queue WHERE organization_id = $1`, [org]);
});
