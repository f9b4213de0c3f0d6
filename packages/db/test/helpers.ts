import { randomUUID } from "node:crypto";
import { connectDatabase, type Database, type Role } from "../src/index.ts";

/** Integration tests run against the DATABASE_URL that `npm test` prepared (migrated). */
export async function testDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("integration tests need DATABASE_URL: run them through `npm test`");
  return connectDatabase(url, { max: 3, applicationName: "tidemark-test" });
}

/** A fresh organisation (and a member with `role`) so tests never see each other's rows. */
export async function createTestOrg(db: Database, role: Role = "admin") {
  const suffix = randomUUID().slice(0, 8);
  const organization = await db.prisma.organization.create({ data: { slug: `test-${suffix}`, name: `Test ${suffix}` } });
  const user = await db.prisma.user.create({
    data: { email: `user-${suffix}@test.invalid`, name: `User ${suffix}`, passwordHash: "scrypt$1$1$1$x$y" },
  });
  await db.prisma.membership.create({ data: { userId: user.id, organizationId: organization.id, role } });
  return { organization, user };
}
