import { acknowledgeAlert, applyEvaluations, createWebhook } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, deleteWebhooksOf, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/**
 * The worker remembers each series' alert state machine between batches; these cases fail if
 * that memory outlives the moment it stops matching the database.
 */

let db: Database;
const organizations: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await deleteWebhooksOf(db, organizations);
  await db.close();
});

// Value below 110 is OK, up to 130 WARNING, above CRITICAL; every result is hard at once.
const POLICY = constantPolicy(100, 0);
const KEY = "h-s-latency";
const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);

async function setUp() {
  const org = await createOrgWithItems(db, [{ name: "latency", policy: POLICY }]);
  organizations.push(org);
  let minute = 0;
  const send = (value: number) =>
    ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: KEY, ts: T0 + minute++ * 60_000, value }] },
    });
  const worker = () => alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
  const alerts = async () =>
    await queryRows<{ id: string; severity: string; open: boolean }>(
      db,
      `SELECT id, severity, closed_at IS NULL AS open FROM alerts WHERE organization_id = $1 ORDER BY opened_at`,
      [org],
    );
  const deliveries = async () =>
    (
      await queryRows<{ status: string }>(
        db,
        `SELECT d.payload->>'status' AS status FROM notification_deliveries d JOIN alerts a ON a.id = d.alert_id
         WHERE a.organization_id = $1 ORDER BY d.created_at, d.id`,
        [org],
      )
    ).map((r) => r.status);
  return { org, send, worker, alerts, deliveries, at: (i: number) => new Date(T0 + i * 60_000) };
}

describe("the worker's remembered alert state machines", () => {
  it("follow what another worker did in between: a closed alert is not reused", async () => {
    const { send, worker, alerts } = await setUp();
    const a = worker();
    const b = worker();
    await send(500);
    await drainQueue(a);
    await send(50);
    await drainQueue(b);
    await send(500);
    await drainQueue(a);
    // Had worker A trusted its memory (alert open, CRITICAL), the third result would change nothing.
    expect(await alerts()).toEqual([
      { id: expect.any(String), severity: "CRITICAL", open: false },
      { id: expect.any(String), severity: "CRITICAL", open: true },
    ]);
  });

  it("see an acknowledgement made between batches: its escalation is held, its resolution sent", async () => {
    const { org, send, worker, alerts, deliveries } = await setUp();
    await createWebhook(db, org, { name: "ops", url: "http://127.0.0.1:9/hook", enabled: true });
    const a = worker();
    await send(120);
    await drainQueue(a);
    expect(await deliveries()).toEqual(["firing"]);
    const [alert] = await alerts();
    const rows = await queryRows(db, `SELECT user_id FROM memberships WHERE organization_id = $1`, [org]);
    expect(await acknowledgeAlert(db, org, alert!.id, rows[0].user_id, "on it")).toMatchObject({ id: alert!.id });
    await send(500);
    await drainQueue(a);
    await send(50);
    await drainQueue(a);
    expect(await deliveries()).toEqual(["firing", "resolved"]);
    const held = await queryRows(db, `SELECT detail FROM alert_events WHERE alert_id = $1 AND kind = 'notification-held'`, [alert!.id]);
    expect(held.map((e) => e.detail)).toEqual(["notification held: acknowledged"]);
    expect(await alerts()).toEqual([{ id: alert!.id, severity: "CRITICAL", open: false }]);
  });

  it("are dropped when alerts are written outside the worker", async () => {
    const { org, send, worker, alerts, at } = await setUp();
    const a = worker();
    await send(500);
    await drainQueue(a);
    const seriesId = Number((await queryRows(db, `SELECT id FROM series WHERE organization_id = $1 AND key = $2`, [org, KEY]))[0].id);
    const ok = {
      seriesId,
      key: KEY,
      state: "OK",
      hardState: "OK",
      hard: true,
      value: 50,
      threshold: 100,
      warning: 110,
      critical: 130,
    } as const;
    expect(await applyEvaluations(db, org, [{ ...ok, ts: at(0.5), explanation: "recovered" }])).toMatchObject({ closed: 1 });
    await send(500);
    await drainQueue(a);
    // Had worker A kept its memory (alert open, CRITICAL), this CRITICAL result would open nothing.
    expect((await alerts()).map((x) => x.open)).toEqual([false, true]);
  });
});
