import type { Database } from "@tidemark/db/client";
import { ingestBatch } from "@tidemark/db/metrics";
import { findSession } from "@tidemark/db/organizations";
import { createOrgWithItems, createTestSession, execute, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createCaller, SharedReads } from "../src/index.ts";
import { signedInMember } from "./signed-in.ts";

/** The dashboard's shared reads (src/shared-reads.ts) as the procedures use them. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

function sharedReads() {
  const clock = { ms: 1_000_000 };
  return { clock, shared: new SharedReads({ ttlMs: 1_000, maxEntries: 100, now: () => clock.ms }) };
}

/** An editor of the organisation calling through the web process's shared reads. */
async function sharingEditor(organizationId: string, shared: SharedReads) {
  const { user } = await signedInMember(db, "editor", organizationId);
  const session = await findSession(db, await createTestSession(db, user.id, organizationId));
  return createCaller({ db, session, sameOrigin: true, sharedReads: shared });
}

it("shares the item list for its time to live: a point that arrives meanwhile shows after it", async () => {
  const org = await createOrgWithItems(db, [{ name: "load" }]);
  const { clock, shared } = sharedReads();
  const caller = await sharingEditor(org, shared);
  expect((await caller.dashboard.items({})).rows[0]?.lastValue).toBeNull();
  const ts = Date.now() - 60_000;
  await ingestBatch(db, {
    organizationId: org,
    agentId: null,
    batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: "h-s-load", ts, value: 7 }] },
  });
  expect((await caller.dashboard.items({})).rows[0]?.lastValue).toBeNull();
  clock.ms += 1_001;
  expect((await caller.dashboard.items({})).rows[0]?.lastValue).toBe(7);
  await execute(db, `DELETE FROM evaluation_queue WHERE organization_id = $1`, [org]);
});

it("shows an edit on the next read: a mutation drops the organisation's shared answers", async () => {
  const org = await createOrgWithItems(db, [{ name: "load" }, { name: "disk" }]);
  const { shared } = sharedReads();
  const caller = await sharingEditor(org, shared);
  const before = await caller.dashboard.items({});
  expect(before.rows.map((row) => row.seriesKey).sort()).toEqual(["h-s-disk", "h-s-load"]);
  const overviewBefore = await caller.dashboard.overview();
  await caller.config.items.delete({ id: before.rows.find((row) => row.seriesKey === "h-s-disk")!.id });
  expect((await caller.dashboard.items({})).rows.map((row) => row.seriesKey)).toEqual(["h-s-load"]);
  expect(await caller.dashboard.overview()).not.toEqual(overviewBefore);
});

it("never hands one organisation's shared answer to another", async () => {
  const { shared } = sharedReads();
  const first = await sharingEditor(await createOrgWithItems(db, [{ name: "load" }]), shared);
  const second = await sharingEditor(await createOrgWithItems(db, [{ name: "disk" }]), shared);
  expect((await first.dashboard.items({})).rows.map((row) => row.seriesKey)).toEqual(["h-s-load"]);
  expect((await second.dashboard.items({})).rows.map((row) => row.seriesKey)).toEqual(["h-s-disk"]);
});
