import { randomUUID } from "node:crypto";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { connectDatabase, type Database, deploySnapshot, importConfiguration, readDeploymentSource, type Role } from "../src/index.ts";

/** Integration tests run against the DATABASE_URL that `npm test` prepared (migrated). */
export async function testDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("integration tests need DATABASE_URL: run them through `npm test`");
  return connectDatabase(url, { max: 3, applicationName: "tidemark-test" });
}

/** T is `value` all day; "<": above 110 % of T is WARNING, above 130 % CRITICAL. */
export function constantPolicy(value: number, maxSoft = 3): ThresholdPolicy {
  return {
    periods: [
      {
        months: [],
        weeks: [],
        calcMethod: "<",
        warning: 10,
        critical: 30,
        hours: { entries: Array.from({ length: 24 }, () => ({ kind: "constant", value }) as const), levels: Array(24).fill(null) },
      },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft,
    timeZone: "UTC",
  };
}

/** Queued deliveries of test webhooks point at a closed port: leave none for the notifier's tests. */
export async function deleteWebhooksOf(db: Database, organizationIds: string[]): Promise<void> {
  await db.pool.query(`DELETE FROM webhooks WHERE organization_id = ANY($1::uuid[])`, [organizationIds]);
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

/**
 * A fresh organisation whose one host (`h` unless given) has one service `s` (every minute, run by
 * the agent) with these items: their series keys are `<host>-s-<name>`. It is deployed, so the
 * worker evaluates those thresholds.
 */
export async function createOrgWithItems(
  db: Database,
  items: { name: string; policy?: ThresholdPolicy | null }[],
  host = "h",
): Promise<string> {
  const { organization } = await createTestOrg(db);
  await importConfiguration(db, organization.id, {
    hosts: [
      {
        name: host,
        alias: null,
        description: "",
        services: [
          {
            name: "s",
            description: "",
            schedules: ["1M"],
            url: "shell://localhost",
            sendServiceData: true,
            items: items.map((i) => ({
              name: i.name,
              description: "",
              execStatement: "x",
              thresholdClass: null,
              serviceItemClass: null,
              cacheMaxCount: null,
              policy: i.policy ?? null,
            })),
          },
        ],
      },
    ],
  });
  // Deployed as stored, unchecked: fixtures may hold what the editor refuses (maxSoft 0: hard at once).
  const snapshot = await readDeploymentSource(db, organization.id);
  await deploySnapshot(db, { organizationId: organization.id, createdBy: null, snapshot, message: "test fixture", rollbackOf: null });
  return organization.id;
}
