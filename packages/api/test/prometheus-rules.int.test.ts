import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, findSession, PROMETHEUS_SERVICE_URL } from "@tidemark/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { constantPolicy, createOrgWithItems, testDatabase } from "../../db/test/helpers.ts";
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
  const user = await db.prisma.user.create({
    data: { email: `v-${crypto.randomUUID()}@test.invalid`, name: "Viewer", passwordHash: "scrypt$1$1$1$x$y" },
  });
  await db.prisma.membership.create({ data: { userId: user.id, organizationId, role: "viewer" } });
  const tokenHash = `test-${crypto.randomUUID()}`;
  await db.prisma.session.create({
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
    const items = await db.prisma.serviceItem.findMany({ where: { organizationId: org }, orderBy: { name: "asc" } });
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

    await db.prisma.service.updateMany({ where: { organizationId: org }, data: { url: PROMETHEUS_SERVICE_URL, name: "node" } });
    await db.prisma.serviceItem.update({ where: { id: load!.id }, data: { seriesKey: "db1:9100-node-node_load1" } });
    const exported = await caller.thresholds.prometheusRules({ itemId: load!.id, intervalSeconds: 15 });
    expect(exported.selector).toBe('node_load1{instance="db1:9100",job="node"}');
    expect(exported.yaml).toContain("for: 45s");
    const file = path.join(dir, "rules.yml");
    writeFileSync(file, exported.yaml);
    expect(execFileSync("/usr/bin/promtool", ["check", "rules", file], { encoding: "utf8" })).toMatch(/SUCCESS: 6 rules found/);
  });
});
