import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "@tidemark/db/client";
import { SEEDED_BY, seedDemo } from "@tidemark/db/seed";
import { queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** shared/ beside the checkout, as CI has it. */
const NAB_DIR = path.resolve(fileURLToPath(new URL("../../../../shared/data/nab", import.meta.url)));
const DAY = 86_400_000;

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

  it("keeps the last six weeks of each NAB series, not nyc_taxi's seven months (a chunk a day, issue 22)", async () => {
    expect(existsSync(NAB_DIR), `${NAB_DIR} (shared/ beside the checkout)`).toBe(true);
    const organization = { slug: `seed-${crypto.randomUUID().slice(0, 8)}`, name: "Seeded with NAB" };
    const now = Date.UTC(2026, 10, 27, 12, 0);
    expect(await seedDemo(db, { nabDir: NAB_DIR, days: 1 / 24, now, organization })).toBe(true);
    const rows = await queryRows<{ key: string; first: Date; last: Date; points: number }>(
      db,
      `SELECT s.key, min(p.ts) AS first, max(p.ts) AS last, count(*)::int AS points
       FROM series s JOIN organizations o ON o.id = s.organization_id JOIN metric_points p ON p.series_id = s.id
       WHERE o.slug = $1 AND s.key = ANY($2) GROUP BY s.key ORDER BY s.key`,
      [organization.slug, ["nyc-taxi-passengers", "aws-ec2-cpu", "aws-rds-cpu"]],
    );
    expect(rows.map((r) => r.key)).toEqual(["aws-ec2-cpu", "aws-rds-cpu", "nyc-taxi-passengers"]);
    for (const r of rows) {
      expect(r.first.getTime(), r.key).toBeGreaterThanOrEqual(now - 42 * DAY);
      expect(r.last.getTime(), r.key).toBeLessThanOrEqual(now);
    }
    // nyc_taxi is longer than the window: cut at its start (a point every 30 minutes), six weeks kept.
    const nyc = rows.find((r) => r.key === "nyc-taxi-passengers")!;
    expect(nyc.first.getTime() - (now - 42 * DAY)).toBeLessThan(30 * 60_000);
    expect(nyc.points).toBeGreaterThan(35 * 48);
  });
});
