import {
  type Database,
  deployDraft,
  deploymentSnapshot,
  deploySnapshot,
  type EvaluationRecord,
  ingestBatch,
  readSnapshot,
  saveItemPolicy,
  updateItemAlertSettings,
} from "@tidemark/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constantPolicy, createOrgWithItems, testDatabase } from "../../../packages/db/test/helpers.ts";
import { drainQueue, Evaluator } from "../src/evaluator.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const T0 = Date.UTC(2026, 2, 2, 10, 0, 0);

describe("the worker evaluates the deployed version, not the saved draft", () => {
  it("uses a saved threshold only once deployed, and the old one again after a rollback", async () => {
    const org = await createOrgWithItems(db, [{ name: "latency", policy: constantPolicy(100) }]);
    const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM service_items WHERE organization_id = $1`, [org]);
    const itemId = rows[0]!.id;
    const actor = { organizationId: org, userId: (await db.prisma.membership.findFirstOrThrow({ where: { organizationId: org } })).userId };
    const cache = new OrganizationCache(db, 0);
    const evaluated: EvaluationRecord[] = [];
    const evaluator = new Evaluator(db, cache, new OrganizationWindows(), {
      beforeWrite: async ({ records }) => {
        evaluated.push(...records);
        return undefined;
      },
    });
    let minute = 0;
    const measure = async (value: number) => {
      const ts = T0 + minute++ * 60_000;
      await ingestBatch(db, {
        organizationId: org,
        agentId: null,
        batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: "h-s-latency", ts, value }] },
      });
      await drainQueue(evaluator);
      return evaluated.at(-1)!;
    };

    expect((await measure(150)).threshold).toBe(100);
    await saveItemPolicy(db, actor, itemId, constantPolicy(200), null);
    await updateItemAlertSettings(db, org, itemId, { recoveryMarginPercent: 5, minimumDurationSeconds: 60 });
    // Saved, not deployed: still version 1's threshold.
    expect((await measure(150)).threshold).toBe(100);

    const v2 = await deployDraft(db, { organizationId: org, createdBy: null, message: "raise" });
    expect(await measure(150)).toMatchObject({ threshold: 200, state: "OK" });
    const { rows: deployed } = await db.pool.query(
      `SELECT deployment_version, alert_recovery_margin, alert_min_duration_seconds FROM deployed_items WHERE organization_id = $1`,
      [org],
    );
    expect(deployed).toEqual([{ deployment_version: v2.version, alert_recovery_margin: 5, alert_min_duration_seconds: 60 }]);

    const v1 = await deploymentSnapshot(db, org, 1);
    await deploySnapshot(db, {
      organizationId: org,
      createdBy: null,
      snapshot: readSnapshot(v1!.snapshot, "v1"),
      message: "back",
      rollbackOf: 1,
    });
    expect((await measure(150)).threshold).toBe(100);
    const { rows: rolledBack } = await db.pool.query(`SELECT alert_recovery_margin FROM deployed_items WHERE organization_id = $1`, [org]);
    expect(rolledBack).toEqual([{ alert_recovery_margin: 0 }]);
  });
});
