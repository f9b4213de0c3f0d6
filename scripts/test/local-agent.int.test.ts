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
    const audit = await testPrisma(db).auditEntry.findMany({ where: { organizationId: organization.id, targetType: "agent" } });
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
});
