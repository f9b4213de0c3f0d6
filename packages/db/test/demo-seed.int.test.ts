import type { Database } from "@tidemark/db/client";
import { SEEDED_BY, seedDemo } from "@tidemark/db/seed";
import { testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe("the demo seed", () => {
  it("is audited as the system: the organisation, its configuration import and its first deployment", async () => {
    const organization = { slug: `seed-${crypto.randomUUID().slice(0, 8)}`, name: "Seeded" };
    expect(await seedDemo(db, { nabDir: null, days: 1 / 24, organization })).toBe(true);
    const { id } = await testPrisma(db).organization.findUniqueOrThrow({ where: { slug: organization.slug } });
    const entries = await testPrisma(db).auditEntry.findMany({ where: { organizationId: id }, orderBy: { createdAt: "asc" } });
    expect(entries.map((e) => [e.action, e.actorKind, e.actorName, e.actorUserId])).toEqual([
      ["organization.create", "system", SEEDED_BY, null],
      ["configuration.import", "system", SEEDED_BY, null],
      ["deployment.create", "system", SEEDED_BY, null],
    ]);
    expect(await seedDemo(db, { nabDir: null, days: 1 / 24, organization })).toBe(false);
  });
});
