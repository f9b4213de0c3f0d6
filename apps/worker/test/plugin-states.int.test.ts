import { updateItemAlertSettings } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { deployDraft } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, queryRows, testDatabase } from "@tidemark/db/testing";
import type { CheckResult } from "@tidemark/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/** A plugin's exit code and output travel from ingest to the item's state, its alert and the alert's detail. */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);

async function setUp(items: Parameters<typeof createOrgWithItems>[1]) {
  const org = await createOrgWithItems(db, items);
  const worker = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
  let n = 0;
  const send = async (results: Omit<CheckResult, "ts">[]) => {
    const ts = T0 + n++ * 60_000;
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: results.map((r) => ({ ...r, ts })) },
    });
    await drainQueue(worker);
  };
  const state = async (key: string) =>
    (
      await queryRows<{ state: string; hard_state: string }>(
        db,
        `SELECT st.state, st.hard_state FROM item_states st JOIN series s ON s.id = st.series_id WHERE s.organization_id = $1 AND s.key = $2`,
        [org, key],
      )
    )[0] ?? null;
  const alert = async (key: string) =>
    (
      await queryRows<{ severity: string; explanation: string; detail: string }>(
        db,
        `SELECT a.severity, a.explanation, e.detail FROM alerts a JOIN series s ON s.id = a.series_id
         JOIN alert_events e ON e.alert_id = a.id AND e.kind = 'opened'
         WHERE a.organization_id = $1 AND s.key = $2 AND a.closed_at IS NULL`,
        [org, key],
      )
    )[0] ?? null;
  return { org, send, state, alert };
}

describe("plugin states", () => {
  it("keeps each result's exit code and output with the point", async () => {
    const { org, send } = await setUp([{ name: "load" }]);
    await send([{ key: "h-s-load", value: 9.5, status: 1, output: "WARNING - load average: 9.5" }]);
    const rows = await queryRows(
      db,
      `SELECT p.value, p.status, p.output FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1`,
      [org],
    );
    expect(rows).toEqual([{ value: 9.5, status: 1, output: "WARNING - load average: 9.5" }]);
    // A batch big enough for COPY on real PostgreSQL keeps them too, escapes included.
    const results = Array.from({ length: 600 }, (_, i) => ({
      key: "h-s-load",
      ts: T0 + (i + 10) * 1000,
      value: i,
      status: i % 4,
      output: `run\t${i}\\`,
    }));
    await ingestBatch(db, { organizationId: org, agentId: null, batch: { batchId: `b-${crypto.randomUUID()}`, results } });
    const stored = await queryRows(
      db,
      `SELECT p.status, p.output FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1 AND p.value = 599`,
      [org],
    );
    expect(stored).toEqual([{ status: 3, output: "run\t599\\" }]);
  });

  it("a plugin exiting 2 with no threshold raises CRITICAL, its output in the alert and its detail", async () => {
    const { send, state, alert } = await setUp([{ name: "disk" }]);
    for (let i = 0; i < 4; i++) await send([{ key: "h-s-disk", value: null, status: 2, output: "DISK CRITICAL - free space: / 3%" }]);
    expect(await state("h-s-disk")).toEqual({ state: "CRITICAL", hard_state: "CRITICAL" });
    const open = await alert("h-s-disk");
    expect(open?.severity).toBe("CRITICAL");
    expect(open?.explanation).toContain("plugin CRITICAL (exit 2): DISK CRITICAL - free space: / 3%");
    expect(open?.detail).toContain("DISK CRITICAL - free space: / 3%");
  });

  it("takes the worse of threshold and plugin by default, and the item's choice when set", async () => {
    // Threshold 100 (`<`, warning 10 %, critical 30 %): 50 is OK by the threshold; every result is hard at once.
    const { org, send, state } = await setUp([
      { name: "worst", policy: constantPolicy(100, 0) },
      { name: "bycheck", policy: constantPolicy(100, 0) },
      { name: "byplugin", policy: constantPolicy(100, 0) },
    ]);
    const itemId = async (name: string) =>
      (await queryRows<{ id: string }>(db, `SELECT id FROM service_items WHERE organization_id = $1 AND name = $2`, [org, name]))[0]!.id;
    const base = { recoveryMarginPercent: 0, minimumDurationSeconds: 0, staleAfterIntervals: 3 };
    await updateItemAlertSettings(db, org, await itemId("bycheck"), { ...base, stateSource: "threshold" });
    await updateItemAlertSettings(db, org, await itemId("byplugin"), { ...base, stateSource: "plugin" });
    // The worker evaluates the deployed version: the choice takes effect once deployed.
    await deployDraft(db, { organizationId: org, createdBy: null, message: "state sources" });
    await send(["worst", "bycheck", "byplugin"].map((name) => ({ key: `h-s-${name}`, value: 50, status: 2, output: "CRITICAL" })));
    expect((await state("h-s-worst"))?.state).toBe("CRITICAL");
    expect((await state("h-s-bycheck"))?.state).toBe("OK");
    expect((await state("h-s-byplugin"))?.state).toBe("CRITICAL");
    await send(["worst", "bycheck", "byplugin"].map((name) => ({ key: `h-s-${name}`, value: 500, status: 0, output: "OK" })));
    expect((await state("h-s-worst"))?.state).toBe("CRITICAL");
    expect((await state("h-s-bycheck"))?.state).toBe("CRITICAL");
    expect((await state("h-s-byplugin"))?.state).toBe("OK");
  });
});
