import type { Database } from "@tidemark/db/client";
import { ensureSeries, insertPoints } from "@tidemark/db/metrics";
import type { Role } from "@tidemark/db/organizations";
import { testDatabase, testPrisma } from "@tidemark/db/testing";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { signedInMember } from "./signed-in.ts";
import { createTenant } from "./tenant-fixtures.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const callerFor = (role: Role) => signedInMember(db, role);

describe("tRPC procedures run with the caller's organisation", () => {
  it("refuses anonymous callers", async () => {
    const anonymous = createCaller({ db, session: null, sameOrigin: true });
    expect(await anonymous.session.me()).toBeNull();
    await expect(anonymous.dashboard.overview()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("counts only the caller's organisation", async () => {
    const { caller } = await callerFor("viewer");
    const overview = await caller.dashboard.overview();
    expect(overview).toMatchObject({ hosts: 0, services: 0, items: 0, agents: 0, openAlerts: 0 });
    expect(["timescaledb", "plain-postgresql"]).toContain(overview.database.kind);
  });

  it("counts the organisation's hosts, services, items, live agents, open alerts and states, beside another's", async () => {
    const [tenant, other] = await Promise.all([createTenant(db, { deployments: 0 }), createTenant(db, { deployments: 0 })]);
    for (const t of [tenant, other]) {
      await testPrisma(db).itemState.create({
        data: {
          organizationId: t.organizationId,
          seriesId: BigInt(t.seriesId),
          ts: new Date(),
          state: "CRITICAL",
          hardState: "CRITICAL",
          softCount: 0,
        },
      });
    }
    expect(await tenant.admin.caller.dashboard.overview()).toMatchObject({
      hosts: 1,
      services: 1,
      items: 1,
      agents: 1,
      openAlerts: 1,
      states: { OK: 0, WARNING: 0, CRITICAL: 1, UNKNOWN: 0 },
      board: { CRITICAL: 1, WARNING: 0, UNKNOWN: 0, OK: 0, NONE: 0 },
    });
  });

  it("answers NOT_FOUND for another organisation's series, and serves its own", async () => {
    const a = await callerFor("viewer");
    const b = await callerFor("viewer");
    const ids = await ensureSeries(db, b.organization.id, ["h-s-i"]);
    const seriesId = ids.get("h-s-i")!;
    const ts = new Date(Date.UTC(2026, 1, 2, 10));
    await insertPoints(db, [{ seriesId, ts, value: 42 }]);
    const window = { seriesId, from: new Date(ts.getTime() - 3_600_000), to: new Date(ts.getTime() + 3_600_000) };
    await expect(a.caller.dashboard.series(window)).rejects.toBeInstanceOf(TRPCError);
    await expect(a.caller.dashboard.series(window)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const own = await b.caller.dashboard.series(window);
    expect(own.points).toEqual([{ ts: ts.getTime(), avg: 42, min: 42, max: 42 }]);
  });

  it("validates input at the boundary", async () => {
    const { caller } = await callerFor("viewer");
    await expect(caller.dashboard.series({ seriesId: 1, from: new Date(2), to: new Date(1) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.dashboard.items({ limit: 10_000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
