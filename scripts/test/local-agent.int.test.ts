import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@tidemark/db/client";
import { revokeAgent } from "@tidemark/db/fleet";
import { createTestOrg, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionLocalAgent } from "../lib/local-agent.ts";

let db: Database;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-local-agent-"));
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start's local agent", () => {
  it("is provisioned once, and a revoked one stays revoked on the next start", async () => {
    const { organization } = await createTestOrg(db);
    const opts = { dataDir, organizationSlug: organization.slug, webPort: 3999 };
    const env = await provisionLocalAgent(db, opts);
    expect(env?.TIDEMARK_AGENT_TOKEN).toMatch(/^tm_agent/);
    expect(await provisionLocalAgent(db, opts)).toEqual(env);
    // Created once, by the system (npm start), as the audit log says; starting again changes nothing.
    const audit = await testPrisma(db).auditEntry.findMany({
      where: { organizationId: organization.id, action: { in: ["agent.create", "agent.rekey"] } },
    });
    expect(audit.map((e) => [e.action, e.actorKind, e.actorName, e.actorUserId])).toEqual([
      ["agent.create", "system", "npm start (the local agent)", null],
    ]);

    const agent = await testPrisma(db).agent.findFirstOrThrow({ where: { organizationId: organization.id, name: "local" } });
    expect(await revokeAgent(db, organization.id, agent.id)).toBe(true);
    expect(await provisionLocalAgent(db, opts)).toBeNull();
    const after = await testPrisma(db).agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(after.revokedAt).not.toBeNull();
    expect(after.tokenHash).toBe(agent.tokenHash);
  });

  it("audits its checks as the system when a start changes them, and writes nothing when it changes nothing", async () => {
    const { organization } = await createTestOrg(db);
    const opts = { dataDir: mkdtempSync(path.join(dataDir, "checks-")), organizationSlug: organization.slug, webPort: 3999 };
    const entries = async () =>
      (
        await testPrisma(db).auditEntry.findMany({
          where: { organizationId: organization.id, action: "agent.checks" },
          orderBy: { createdAt: "asc" },
        })
      ).map((e) => [e.actorKind, e.actorName, e.actorUserId]);
    const health = () =>
      testPrisma(db).service.findFirstOrThrow({
        where: { organizationId: organization.id, name: "health" },
        select: { url: true, updatedAt: true },
      });
    const system = ["system", "npm start (the local agent)", null];

    await provisionLocalAgent(db, opts);
    expect(await entries()).toEqual([system]);
    const first = await health();
    await provisionLocalAgent(db, opts);
    expect(await entries()).toEqual([system]);
    expect(await health()).toEqual(first);

    await provisionLocalAgent(db, { ...opts, webPort: 4000 });
    expect(await entries()).toEqual([system, system]);
    expect((await health()).url).toBe("http://127.0.0.1:4000/api/health");
    const [latest] = await testPrisma(db).auditEntry.findMany({
      where: { organizationId: organization.id, action: "agent.checks" },
      orderBy: { createdAt: "desc" },
      take: 1,
    });
    expect(JSON.stringify(latest?.before)).toContain("3999");
    expect(JSON.stringify(latest?.after)).toContain("4000");
  });
});
