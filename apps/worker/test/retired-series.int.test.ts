import { closeRetiredAlerts, createWebhook } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { createAgent, deploySnapshot, readDeploymentSource, revokeAgent } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, deleteWebhooksOf, execute, queryRows, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue } from "../src/evaluator.ts";
import { FreshnessWatch } from "../src/freshness.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/**
 * Retired series: an item a deployment removes, and a revoked agent's heartbeat, get no more
 * results, so an alert open on them would stay open (and be resent to Alertmanager) for good.
 * The worker closes it and tells the receivers its firing went to; meanwhile points of the item
 * still queued open no alert.
 */

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2025, 0, 6, 12, 0, 0);
const MINUTE = 60_000;

async function setUp() {
  // maxSoft 0: a problem is hard at once. "load" > 130 is CRITICAL.
  const org = await createOrgWithItems(db, [
    { name: "load", policy: constantPolicy(100, 0) },
    { name: "disk", policy: constantPolicy(100, 0) },
  ]);
  await createWebhook(db, org, { name: "ops", url: "http://127.0.0.1:9/hook", enabled: true });
  // Its queued deliveries point at a closed port: the notifier's tests must not find them.
  onTestFinished(() => deleteWebhooksOf(db, [org]));
  const send = (key: string, ts: number, value: number) =>
    ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key, ts, value }] },
    });
  /** Deploys the draft without `item`, which stays in the draft (its agent may still send it until it applies the deployment). */
  const deployWithout = async (item: string) => {
    const source = await readDeploymentSource(db, org);
    const hosts = source.configuration.hosts.map((h) => ({
      ...h,
      services: h.services.map((s) => ({ ...s, items: s.items.filter((i) => i.name !== item) })),
    }));
    const snapshot = { ...source, configuration: { ...source.configuration, hosts } };
    return deploySnapshot(db, { organizationId: org, createdBy: null, snapshot, message: `without ${item}`, rollbackOf: null });
  };
  const alerts = () =>
    queryRows<{ key: string; severity: string; open: boolean }>(
      db,
      `SELECT s.key, a.severity, a.closed_at IS NULL AS open FROM alerts a JOIN series s ON s.id = a.series_id
       WHERE a.organization_id = $1 ORDER BY a.opened_at, s.key`,
      [org],
    );
  const deliveries = () =>
    queryRows<{ key: string; status: string; description: string }>(
      db,
      `SELECT s.key, d.payload->>'status' AS status, d.payload->'alerts'->0->'annotations'->>'description' AS description
       FROM notification_deliveries d JOIN alerts a ON a.id = d.alert_id JOIN series s ON s.id = a.series_id
       WHERE d.organization_id = $1 ORDER BY d.created_at, s.key, d.payload->>'status' DESC`,
      [org],
    );
  const events = () =>
    queryRows<{ kind: string; detail: string }>(
      db,
      `SELECT e.kind, e.detail FROM alert_events e WHERE e.organization_id = $1 ORDER BY e.id`,
      [org],
    );
  return { org, send, deployWithout, alerts, deliveries, events };
}

/**
 * The worker's look at every organisation's retired series; answers how many of this
 * organisation's were retired before and after it (other tests' organisations share the database,
 * so the look's own counts may include theirs).
 */
async function sweep(org: string, now = new Date()) {
  const retired = async () =>
    (await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM retired_series WHERE organization_id = $1`, [org]))[0]!.n;
  const retiredBefore = await retired();
  await closeRetiredAlerts(db, { externalUrl: "https://tm.example", now });
  return { retiredBefore, retiredAfter: await retired() };
}

describe("retired series", () => {
  it("closes the alert of an item a deployment removed, with its resolution where the firing went", async () => {
    const { org, send, deployWithout, alerts, deliveries, events } = await setUp();
    const evaluator = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
    await send("h-s-load", T0, 200);
    await send("h-s-disk", T0, 200);
    await drainQueue(evaluator);
    expect(await alerts()).toEqual([
      { key: "h-s-disk", severity: "CRITICAL", open: true },
      { key: "h-s-load", severity: "CRITICAL", open: true },
    ]);
    const { version } = await deployWithout("load");
    expect(await sweep(org)).toEqual({ retiredBefore: 1, retiredAfter: 1 });
    expect(await alerts()).toEqual([
      { key: "h-s-disk", severity: "CRITICAL", open: true },
      { key: "h-s-load", severity: "CRITICAL", open: false },
    ]);
    const reason = `retired: the item is no longer in the configuration (deployment v${version})`;
    expect(await deliveries()).toEqual([
      { key: "h-s-disk", status: "firing", description: expect.any(String) },
      { key: "h-s-load", status: "firing", description: expect.any(String) },
      { key: "h-s-load", status: "resolved", description: reason },
    ]);
    expect((await events()).filter((e) => e.kind === "closed")).toEqual([{ kind: "closed", detail: reason }]);
    // Closed once: the next look sends nothing more, and the series stays retired a while.
    expect(await sweep(org)).toEqual({ retiredBefore: 1, retiredAfter: 1 });
    expect(await deliveries()).toHaveLength(3);
    expect(await sweep(org, new Date(Date.now() + 11 * MINUTE))).toEqual({ retiredBefore: 1, retiredAfter: 0 });
  });

  it("opens no alert from a removed item's points evaluated by a worker that has not read the deployment yet", async () => {
    const { org, send, deployWithout, alerts } = await setUp();
    // A configuration read once and kept: the worker has not seen the deployment.
    const stale = alertingEvaluator(db, new OrganizationCache(db, 3_600_000), new OrganizationWindows());
    await send("h-s-load", T0, 200);
    await drainQueue(stale);
    await deployWithout("load");
    await sweep(org);
    expect(await alerts()).toEqual([{ key: "h-s-load", severity: "CRITICAL", open: false }]);
    // Queued before the agent applied the deployment: evaluated with the old configuration.
    await send("h-s-load", T0 + MINUTE, 250);
    await drainQueue(stale);
    expect(await alerts()).toEqual([{ key: "h-s-load", severity: "CRITICAL", open: false }]);
  });

  it("leaves an item deployed again to its own results, and forgets it was retired", async () => {
    const { org, send, deployWithout, alerts } = await setUp();
    const evaluator = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
    await send("h-s-load", T0, 200);
    await drainQueue(evaluator);
    await deployWithout("load");
    // Deployed again before the worker looked: the item is evaluated again.
    await deployWithout("none");
    expect(await sweep(org)).toEqual({ retiredBefore: 1, retiredAfter: 0 });
    expect(await alerts()).toEqual([{ key: "h-s-load", severity: "CRITICAL", open: true }]);
    await send("h-s-load", T0 + MINUTE, 50);
    await drainQueue(evaluator);
    expect(await alerts()).toEqual([{ key: "h-s-load", severity: "CRITICAL", open: false }]);
  });

  it("closes the alert of an agent revoked while it was silent", async () => {
    const { org, alerts, deliveries } = await setUp();
    const { agent } = await createAgent(db, org, "edge9");
    await execute(db, `UPDATE services SET agent_id = $1 WHERE organization_id = $2`, [agent.id, org]);
    await execute(db, `UPDATE agents SET last_seen_at = $1 WHERE id = $2`, [new Date(T0), agent.id]);
    const evaluator = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
    await new FreshnessWatch(db).tick(T0 + 10 * MINUTE);
    await drainQueue(evaluator);
    expect((await alerts()).filter((a) => a.key === "edge9-agent-heartbeat")).toEqual([
      { key: "edge9-agent-heartbeat", severity: "UNKNOWN", open: true },
    ]);
    expect(await revokeAgent(db, org, agent.id)).toBe(true);
    expect(await sweep(org)).toEqual({ retiredBefore: 1, retiredAfter: 1 });
    expect((await alerts()).filter((a) => a.key === "edge9-agent-heartbeat")).toEqual([
      { key: "edge9-agent-heartbeat", severity: "UNKNOWN", open: false },
    ]);
    expect((await deliveries()).filter((d) => d.key === "edge9-agent-heartbeat").map((d) => [d.status, d.description])).toEqual([
      ["firing", expect.stringContaining("has not called in")],
      ["resolved", "retired: agent edge9 was revoked"],
    ]);
  });
});
