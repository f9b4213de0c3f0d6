import { readSnapshot } from "@tidemark/config-render";
import { updateItemAlertSettings } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { itemDeploymentStatus, saveItemPolicy } from "@tidemark/db/configuration";
import { type EvaluationRecord, loadFreshnessItems } from "@tidemark/db/evaluation";
import { createAgent, deployDraft, deploymentSnapshot, deploySnapshot } from "@tidemark/db/fleet";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, execute, queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainQueue, Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);

/** An organisation with one item under a threshold of 100, evaluated by a worker whose records are kept. */
async function setUp(policy = constantPolicy(100)) {
  const org = await createOrgWithItems(db, [{ name: "latency", policy }]);
  const rows = await queryRows<{ id: string }>(db, `SELECT id FROM service_items WHERE organization_id = $1`, [org]);
  const itemId = rows[0]!.id;
  const evaluated: EvaluationRecord[] = [];
  const evaluator = new Evaluator(db, new OrganizationCache(db, 0), new OrganizationWindows(), {
    beforeWrite: async ({ records }) => {
      evaluated.push(...records);
      return undefined;
    },
  });
  let minute = 0;
  /** Ingests one result (with the plugin's exit code when given) and returns how it was evaluated. */
  const measure = async (value: number, status?: number) => {
    const ts = T0 + minute++ * 60_000;
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: {
        batchId: `b-${crypto.randomUUID()}`,
        results: [{ key: "h-s-latency", ts, value, ...(status === undefined ? {} : { status }) }],
      },
    });
    await drainQueue(evaluator);
    return evaluated.at(-1)!;
  };
  const rollBackTo = async (version: number) => {
    const stored = await deploymentSnapshot(db, org, version);
    await deploySnapshot(db, {
      organizationId: org,
      createdBy: null,
      snapshot: readSnapshot(stored!.snapshot, `v${version}`),
      message: "back",
      rollbackOf: version,
    });
  };
  return { org, itemId, measure, rollBackTo };
}

describe("the worker evaluates the deployed version, not the saved draft", () => {
  it("uses a saved threshold only once deployed, and the old one again after a rollback", async () => {
    const { org, itemId, measure, rollBackTo } = await setUp();
    const actor = {
      organizationId: org,
      userId: (await testPrisma(db).membership.findFirstOrThrow({ where: { organizationId: org } })).userId,
    };

    expect((await measure(150)).threshold).toBe(100);
    await saveItemPolicy(db, actor, itemId, constantPolicy(200), null);
    await updateItemAlertSettings(db, org, itemId, { recoveryMarginPercent: 5, minimumDurationSeconds: 60 });
    // Saved, not deployed: still version 1's threshold.
    expect((await measure(150)).threshold).toBe(100);

    const v2 = await deployDraft(db, { organizationId: org, createdBy: null, message: "raise" });
    expect(await measure(150)).toMatchObject({ threshold: 200, state: "OK" });
    const deployed = await queryRows(
      db,
      `SELECT deployment_version, alert_recovery_margin, alert_min_duration_seconds FROM deployed_items WHERE organization_id = $1`,
      [org],
    );
    expect(deployed).toEqual([{ deployment_version: v2.version, alert_recovery_margin: 5, alert_min_duration_seconds: 60 }]);

    await rollBackTo(1);
    expect((await measure(150)).threshold).toBe(100);
    const rolledBack = await queryRows(db, `SELECT alert_recovery_margin FROM deployed_items WHERE organization_id = $1`, [org]);
    expect(rolledBack).toEqual([{ alert_recovery_margin: 0 }]);
  });

  it("takes where the state comes from and when silence is stale from the deployed version, and a rollback restores them", async () => {
    // 50 is OK by the threshold; the plugin exits CRITICAL: the default (worst of both) is CRITICAL.
    const { org, itemId, measure, rollBackTo } = await setUp(constantPolicy(100, 0));
    // Run by an agent, so that the freshness watch expects its data.
    const { agent } = await createAgent(db, org, "edge1");
    await execute(db, `UPDATE services SET agent_id = $1 WHERE organization_id = $2`, [agent.id, org]);
    const staleAfter = async () => (await loadFreshnessItems(db)).find((i) => i.organizationId === org)?.staleAfterIntervals;
    expect((await measure(50, 2)).state).toBe("CRITICAL");
    expect(await staleAfter()).toBe(3);

    await updateItemAlertSettings(db, org, itemId, {
      recoveryMarginPercent: 0,
      minimumDurationSeconds: 0,
      stateSource: "threshold",
      staleAfterIntervals: 7,
    });
    // Saved, not deployed: still the worst of both, still stale after 3 intervals.
    expect((await measure(50, 2)).state).toBe("CRITICAL");
    expect(await staleAfter()).toBe(3);
    // The editor says so, old → new.
    expect(await itemDeploymentStatus(db, org, itemId)).toMatchObject({
      differs: true,
      changes: [
        { field: "state source", before: "worst", after: "threshold" },
        { field: "stale after", before: "3 intervals", after: "7 intervals" },
      ],
    });

    const v2 = await deployDraft(db, { organizationId: org, createdBy: null, message: "by threshold" });
    expect((await measure(50, 2)).state).toBe("OK");
    expect(await staleAfter()).toBe(7);
    expect(await itemDeploymentStatus(db, org, itemId)).toMatchObject({ differs: false, changes: [] });
    const deployed = await queryRows(
      db,
      `SELECT deployment_version, state_source, stale_after_intervals FROM deployed_items WHERE organization_id = $1`,
      [org],
    );
    expect(deployed).toEqual([{ deployment_version: v2.version, state_source: "threshold", stale_after_intervals: 7 }]);

    await rollBackTo(1);
    expect((await measure(50, 2)).state).toBe("CRITICAL");
    expect(await staleAfter()).toBe(3);
  });
});
