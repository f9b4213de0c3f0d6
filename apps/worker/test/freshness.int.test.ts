import type { Database } from "@tidemark/db/client";
import { createAgent } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue } from "../src/evaluator.ts";
import { FreshnessWatch } from "../src/freshness.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/**
 * Silence alerts: an item without data for three of its intervals (1M here) is stale, UNKNOWN,
 * alerted like any state; an agent that stops calling in gets one alert, not one per item.
 * Each organisation is checked on its own (the watch serves every organisation at once).
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

// Before any other test's data, so that other organisations in this database are never stale at these instants.
const T0 = Date.UTC(2025, 0, 6, 10, 0, 0);
const MINUTE = 60_000;

async function setUp(watch = new FreshnessWatch(db)) {
  const org = await createOrgWithItems(db, [{ name: "load", policy: constantPolicy(100, 0) }, { name: "disk" }]);
  const { agent } = await createAgent(db, org, "edge1");
  await execute(db, `UPDATE services SET agent_id = $1 WHERE organization_id = $2`, [agent.id, org]);
  const send = (key: string, ts: number, value: number) =>
    ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key, ts, value, status: 0 }] },
    });
  const agentSeenAt = (ts: number) => queryRows(db, `UPDATE agents SET last_seen_at = $1 WHERE id = $2`, [new Date(ts), agent.id]);
  const evaluator = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
  /** The watch looks at `now`; an agent that keeps calling in has called just before. */
  const tick = async (now: number, agentCallsIn = false) => {
    if (agentCallsIn) await agentSeenAt(now);
    const queued = (await watch.tick(now)).filter((r) => r.organizationId === org);
    await drainQueue(evaluator);
    return queued;
  };
  const openAlerts = async () =>
    await queryRows<{ key: string; severity: string; explanation: string }>(
      db,
      `SELECT s.key, a.severity, a.explanation FROM alerts a JOIN series s ON s.id = a.series_id
         WHERE a.organization_id = $1 AND a.closed_at IS NULL ORDER BY s.key`,
      [org],
    );
  return { send, tick, openAlerts, agentSeenAt, org };
}

describe("freshness", () => {
  it("makes an item without data for three intervals stale, UNKNOWN, with an alert saying so, until data comes again", async () => {
    const { send, tick, openAlerts } = await setUp();
    await send("h-s-load", T0, 50);
    await send("h-s-disk", T0, 1);
    await send("h-s-disk", T0 + 2 * MINUTE, 1);
    // The agent keeps calling in: it is the item that is missing.
    expect(await tick(T0 + 3 * MINUTE - 1, true)).toEqual([]);
    const queued = await tick(T0 + 3 * MINUTE, true);
    expect(queued.map((r) => r.ts)).toEqual([T0 + 3 * MINUTE]);
    expect(await openAlerts()).toEqual([
      { key: "h-s-load", severity: "UNKNOWN", explanation: "stale: no data for 3 intervals (last at 2025-01-06T10:00:00.000Z)" },
    ]);
    // Reported once: the next look queues nothing more.
    expect(await tick(T0 + 4 * MINUTE, true)).toEqual([]);
    // Data again: the threshold decides (50 < 100 is OK) and the alert closes.
    await send("h-s-load", T0 + 5 * MINUTE, 50);
    await tick(T0 + 5 * MINUTE, true);
    expect(await openAlerts()).toEqual([
      { key: "h-s-disk", severity: "UNKNOWN", explanation: "stale: no data for 3 intervals (last at 2025-01-06T10:02:00.000Z)" },
    ]);
  });

  it("raises one alert for an agent that stopped calling in, not one per item, and closes it when the agent is back", async () => {
    const { send, tick, openAlerts, agentSeenAt } = await setUp();
    await agentSeenAt(T0 + 5_000);
    await send("h-s-load", T0, 50);
    await send("h-s-disk", T0, 1);
    const queued = await tick(T0 + 10 * MINUTE);
    expect(queued).toHaveLength(1);
    expect(await openAlerts()).toEqual([
      {
        key: "edge1-agent-heartbeat",
        severity: "UNKNOWN",
        explanation: "stale: agent edge1 has not called in since 2025-01-06T10:00:05.000Z",
      },
    ]);
    await agentSeenAt(T0 + 11 * MINUTE);
    await send("h-s-load", T0 + 11 * MINUTE, 50);
    await send("h-s-disk", T0 + 11 * MINUTE, 1);
    await tick(T0 + 11 * MINUTE);
    expect(await openAlerts()).toEqual([]);
  });

  it("closes the alert of a silent agent whose services all moved away (nothing watches it any more)", async () => {
    const { send, tick, openAlerts, agentSeenAt, org } = await setUp();
    await agentSeenAt(T0 + 5_000);
    await send("h-s-load", T0, 50);
    await tick(T0 + 10 * MINUTE);
    expect((await openAlerts()).map((a) => a.key)).toEqual(["edge1-agent-heartbeat"]);
    // Its services run nowhere now; the agent stays silent.
    await execute(db, `UPDATE services SET agent_id = NULL WHERE organization_id = $1`, [org]);
    const queued = await tick(T0 + 12 * MINUTE);
    expect(queued.map((r) => ({ ts: r.ts, status: r.status, output: r.output }))).toEqual([
      { ts: T0 + 12 * MINUTE, status: 0, output: "agent edge1 runs no service: its calls are no longer watched" },
    ]);
    expect(await openAlerts()).toEqual([]);
    // Closed once: an idle agent whose heartbeat is OK is not looked at again.
    expect(await tick(T0 + 13 * MINUTE)).toEqual([]);
  });

  it("keeps watching as the configuration changes: items deployed after its first look are watched at the next", async () => {
    const watch = new FreshnessWatch(db);
    const first = await setUp(watch);
    await first.send("h-s-load", T0, 50);
    expect(await first.tick(T0 + MINUTE, true)).toEqual([]);
    // Another organisation deploys its items after the watch loaded the first one's.
    const second = await setUp(watch);
    await second.send("h-s-load", T0 + 2 * MINUTE, 50);
    await second.send("h-s-disk", T0, 1);
    expect((await second.tick(T0 + 3 * MINUTE, true)).map((r) => r.ts)).toEqual([T0 + 3 * MINUTE]);
    expect(await second.openAlerts()).toEqual([
      { key: "h-s-disk", severity: "UNKNOWN", explanation: "stale: no data for 3 intervals (last at 2025-01-06T10:00:00.000Z)" },
    ]);
  });
});
