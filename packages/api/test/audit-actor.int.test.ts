import { hashToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { authenticateApiToken } from "@tidemark/db/organizations";
import { execute, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "../src/index.ts";
import { signedInMember } from "./signed-in.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const hostFields = (name: string) => ({ name, alias: null, description: "" });

async function auditOf(organizationId: string, action: string) {
  return testPrisma(db).auditEntry.findMany({ where: { organizationId, action }, orderBy: { id: "asc" } });
}

describe("the audit log", () => {
  it("records a change made with an API token as that token, by name, acting for its creator", async () => {
    const admin = await signedInMember(db, "admin");
    const { secret } = await admin.caller.tokens.create({ name: "ci-deployer", role: "editor" });
    const viaToken = createCaller({ db, session: await authenticateApiToken(db, hashToken(secret)), sameOrigin: true });
    await viaToken.config.hosts.create(hostFields("from-ci"));
    await admin.caller.config.hosts.create(hostFields("by-hand"));
    const entries = await auditOf(admin.organizationId, "host.create");
    expect(entries.map((e) => [e.actorKind, e.actorName, e.actorUserId, (e.after as { name: string }).name])).toEqual([
      ["api-token", expect.stringMatching(/^ci-deployer/), admin.user.id, "from-ci"],
      ["user", null, admin.user.id, "by-hand"],
    ]);
  });

  it("writes the entry in the change's own transaction: when the entry cannot be written, the change is not made either", async () => {
    const editor = await signedInMember(db, "editor");
    await execute(
      db,
      `
      CREATE OR REPLACE FUNCTION refuse_test_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.after->>'name' = 'audit-refused' THEN RAISE EXCEPTION 'audit log unavailable'; END IF;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS refuse_test_audit ON audit_log;
      CREATE TRIGGER refuse_test_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_test_audit();`,
    );
    try {
      await expect(editor.caller.config.hosts.create(hostFields("audit-refused"))).rejects.toThrow();
      expect(await testPrisma(db).host.findMany({ where: { organizationId: editor.organizationId } })).toEqual([]);
      const host = await editor.caller.config.hosts.create(hostFields("fine"));
      await expect(editor.caller.config.hosts.update({ id: host.id, fields: hostFields("audit-refused") })).rejects.toThrow();
      expect((await testPrisma(db).host.findUniqueOrThrow({ where: { id: host.id } })).name).toBe("fine");
    } finally {
      await execute(db, `DROP TRIGGER IF EXISTS refuse_test_audit ON audit_log; DROP FUNCTION IF EXISTS refuse_test_audit()`);
    }
  });
});
