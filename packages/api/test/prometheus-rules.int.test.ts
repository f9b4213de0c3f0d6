import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@tidemark/db/client";
import { saveItemPolicy } from "@tidemark/db/configuration";
import { deployDraft } from "@tidemark/db/fleet";
import { PROMETHEUS_SERVICE_URL } from "@tidemark/db/metrics";
import { findSession } from "@tidemark/db/organizations";
import { constantPolicy, createOrgWithItems, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";

let db: Database;
const dir = mkdtempSync(path.join(os.tmpdir(), "tidemark-rules-"));
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db.close();
});

async function viewerOf(organizationId: string) {
  const user = await testPrisma(db).user.create({
    data: { email: `v-${crypto.randomUUID()}@test.invalid`, name: "Viewer", passwordHash: "scrypt$1$1$1$x$y" },
  });
  await testPrisma(db).membership.create({ data: { userId: user.id, organizationId, role: "viewer" } });
  const tokenHash = `test-${crypto.randomUUID()}`;
  await testPrisma(db).session.create({
    data: { tokenHash, userId: user.id, activeOrganizationId: organizationId, expiresAt: new Date(Date.now() + 60_000) },
  });
  return createCaller({ db, session: await findSession(db, tokenHash), sameOrigin: true });
}

describe("thresholds.prometheusRules", () => {
  it("exports a remote-written item's policy as rules promtool accepts, and asks for a selector otherwise", async () => {
    const org = await createOrgWithItems(
      db,
      [{ name: "node_load1", policy: constantPolicy(4) }, { name: "plain", policy: constantPolicy(4) }, { name: "bare" }],
      "db1:9100",
    );
    const items = await testPrisma(db).serviceItem.findMany({ where: { organizationId: org }, orderBy: { name: "asc" } });
    const [bare, load, plain] = items;
    const caller = await viewerOf(org);
    await expect(caller.thresholds.prometheusRules({ itemId: plain!.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/selector/),
    });
    await expect(caller.thresholds.prometheusRules({ itemId: bare!.id, selector: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/no threshold policy/),
    });

    await testPrisma(db).service.updateMany({ where: { organizationId: org }, data: { url: PROMETHEUS_SERVICE_URL, name: "node" } });
    await testPrisma(db).serviceItem.update({ where: { id: load!.id }, data: { seriesKey: "db1:9100-node-node_load1" } });
    await deployDraft(db, { organizationId: org, createdBy: null, message: "remote-written" });
    const exported = await caller.thresholds.prometheusRules({ itemId: load!.id, intervalSeconds: 15 });
    expect(exported.selector).toBe('node_load1{instance="db1:9100",job="node"}');
    expect(exported.yaml).toContain("for: 45s");
    const file = path.join(dir, "rules.yml");
    writeFileSync(file, exported.yaml);
    expect(execFileSync("/usr/bin/promtool", ["check", "rules", file], { encoding: "utf8" })).toMatch(/SUCCESS: 6 rules found/);
  });

  it("exports the policy in force (the deployed version), not the saved draft, and refuses when the item is not deployed", async () => {
    const org = await createOrgWithItems(db, [{ name: "latency", policy: constantPolicy(4) }], "web1");
    const item = await testPrisma(db).serviceItem.findFirstOrThrow({ where: { organizationId: org } });
    const caller = await viewerOf(org);
    const actor = {
      organizationId: org,
      userId: (await testPrisma(db).membership.findFirstOrThrow({ where: { organizationId: org } })).userId,
    };
    const thresholdOf = async () => {
      const exported = await caller.thresholds.prometheusRules({ itemId: item.id, selector: "latency_seconds" });
      return {
        version: exported.deploymentVersion,
        header: exported.yaml.split("\n")[0],
        threshold: /vector\((\d+)\)/.exec(exported.yaml)?.[1],
      };
    };
    expect(await thresholdOf()).toEqual({
      version: 1,
      header: "# Tidemark: the threshold policy of web1-s-latency in force (deployed version 1)",
      threshold: "4",
    });
    // A saved draft changes nothing until deployed.
    await saveItemPolicy(db, actor, item.id, constantPolicy(9), null);
    expect(await thresholdOf()).toMatchObject({ version: 1, threshold: "4" });
    await deployDraft(db, { organizationId: org, createdBy: null, message: "raise" });
    expect(await thresholdOf()).toMatchObject({ version: 2, threshold: "9" });
    // An item added since the last deployment has nothing in force.
    await testPrisma(db).serviceItem.update({ where: { id: item.id }, data: { seriesKey: "web1-s-renamed" } });
    await expect(caller.thresholds.prometheusRules({ itemId: item.id, selector: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/not in deployed version 2.*not the draft/),
    });
    await testPrisma(db).deployment.deleteMany({ where: { organizationId: org } });
    await expect(caller.thresholds.prometheusRules({ itemId: item.id, selector: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/nothing is deployed yet/),
    });
    await expect(caller.thresholds.prometheusRules({ itemId: crypto.randomUUID(), selector: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
