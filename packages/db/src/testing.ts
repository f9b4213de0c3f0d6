import { randomUUID } from "node:crypto";
import type { EvaluationOutcome } from "@tidemark/alerts";
import type { State, ThresholdPolicy } from "@tidemark/thresholds";
import { from as copyFrom } from "pg-copy-streams";
import type { Role } from "./auth.ts";
import { createPool, type PoolOptions } from "./connection.ts";
import { connectDatabase, type Database, databaseOver, poolOf, prismaOf } from "./database.ts";
import type { DatabaseInfo } from "./database-kind.ts";
import { deploySnapshot } from "./deploy.ts";
import { readDeploymentSource } from "./deployments.ts";
import { mergeConfiguration } from "./draft-configuration.ts";
import type { EvaluationRecord } from "./evaluation.ts";
import { insertPoints } from "./metrics.ts";
import { createPolicy } from "./policy-rows.ts";
import type { PrismaClient } from "./prisma.ts";

/**
 * `@tidemark/db/testing`: what integration tests, e2e fixtures and benches share to set up and
 * look at a database. Not for production code: these helpers reach past the stores' functions.
 */

/** Integration tests run against the DATABASE_URL that `npm test` prepared (migrated). */
export async function testDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("integration tests need DATABASE_URL: run them through `npm test`");
  return connectDatabase(url, { max: 3, applicationName: "tidemark-test" });
}

/** A Database at `url` taken to be `info`, without checking that anything answers there (a server gone silent). */
export function uncheckedDatabase(url: string, info: DatabaseInfo, opts: PoolOptions = {}): Database {
  return databaseOver(createPool(url, opts), url, info);
}

/** The rows of one SQL statement, for fixtures and assertions on what is stored (untyped unless told, as pg does). */
// biome-ignore lint/suspicious/noExplicitAny: the rows of arbitrary SQL
export async function queryRows<T = any>(db: Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await poolOf(db).query(sql, params)).rows as T[];
}

/** Runs SQL (several statements when there are no parameters); returns how many rows the last one touched. */
export async function execute(db: Database, sql: string, params: unknown[] = []): Promise<number> {
  return (await poolOf(db).query(sql, params)).rowCount ?? 0;
}

/**
 * Runs `work` on one connection of its own, which it may hold in an open transaction (a worker
 * dying mid-batch, a lock held across statements); the connection is given back afterwards.
 */
export async function withConnection<T>(
  db: Database,
  // biome-ignore lint/suspicious/noExplicitAny: the rows of arbitrary SQL
  work: (query: (sql: string, params?: unknown[]) => Promise<any[]>) => Promise<T>,
): Promise<T> {
  const client = await poolOf(db).connect();
  try {
    return await work(async (sql, params = []) => (await client.query(sql, params)).rows);
  } finally {
    client.release();
  }
}

/**
 * Writes points straight into metric_points, past ingest (no series, queue or batch bookkeeping):
 * the baseline the ingest bench compares with. COPY in `batch`-row statements on PostgreSQL;
 * multi-row INSERTs on the embedded server, which has no COPY FROM STDIN.
 */
export async function writePointsRaw(
  db: Database,
  organizationId: string,
  rows: { seriesId: number; ts: Date; value: number | null }[],
  batch: number,
): Promise<void> {
  if (db.info.embedded) {
    for (let i = 0; i < rows.length; i += batch) await insertPoints(db, rows.slice(i, i + batch));
    return;
  }
  const client = await poolOf(db).connect();
  try {
    for (let i = 0; i < rows.length; i += batch) {
      const stream = client.query(copyFrom("COPY metric_points (organization_id, series_id, ts, value) FROM STDIN"));
      const text = rows
        .slice(i, i + batch)
        .map((r) => `${organizationId}\t${r.seriesId}\t${r.ts.toISOString()}\t${r.value ?? "\\N"}\n`)
        .join("");
      await new Promise<void>((resolve, reject) => {
        stream.on("finish", resolve);
        stream.on("error", reject);
        stream.end(text);
      });
    }
  } finally {
    client.release();
  }
}

/** Prisma's client, for fixtures and assertions that read or write a model's rows directly. */
export function testPrisma(db: Database): PrismaClient {
  return prismaOf(db);
}

/** A session of `userId` (active in `organizationId`) for ten minutes unless told; returns its token hash. */
export async function createTestSession(db: Database, userId: string, organizationId: string, expiresInMs = 600_000): Promise<string> {
  const tokenHash = `test-${randomUUID()}`;
  await prismaOf(db).session.create({
    data: { tokenHash, userId, activeOrganizationId: organizationId, expiresAt: new Date(Date.now() + expiresInMs) },
  });
  return tokenHash;
}

/**
 * The evaluation records of results evaluated elsewhere (hard at once, soft count 1), in the
 * order given: a record is a state change when its series' state differs from the one before it
 * (`previous`, which this updates, carries the states over from earlier calls).
 */
export function evaluationRecords(outcomes: EvaluationOutcome[], previous = new Map<number, State>()): EvaluationRecord[] {
  return outcomes.map((o) => {
    const changed = previous.get(o.seriesId) !== o.state;
    previous.set(o.seriesId, o.state);
    return { ...o, ts: o.ts.getTime(), softCount: 1, changed };
  });
}

/** Gives the organisation's item with this series key a new policy, unchecked and unaudited (a fixture, not an edit). */
export async function setItemPolicy(db: Database, organizationId: string, seriesKey: string, policy: ThresholdPolicy): Promise<void> {
  await prismaOf(db).$transaction(async (tx) => {
    const policyId = await createPolicy(tx, organizationId, policy);
    await tx.serviceItem.updateMany({ where: { organizationId, seriesKey }, data: { policyId } });
  });
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
  await poolOf(db).query(`DELETE FROM webhooks WHERE organization_id = ANY($1::uuid[])`, [organizationIds]);
}

/** A fresh organisation (and a member with `role`) so tests never see each other's rows. */
export async function createTestOrg(db: Database, role: Role = "admin") {
  const suffix = randomUUID().slice(0, 8);
  const organization = await prismaOf(db).organization.create({ data: { slug: `test-${suffix}`, name: `Test ${suffix}` } });
  const user = await prismaOf(db).user.create({
    data: { email: `user-${suffix}@test.invalid`, name: `User ${suffix}`, passwordHash: "scrypt$1$1$1$x$y" },
  });
  await prismaOf(db).membership.create({ data: { userId: user.id, organizationId: organization.id, role } });
  return { organization, user };
}

/**
 * A fresh organisation whose hosts (`h` unless given, or an item names its own) each have one
 * service `s` (every minute, run by the agent) with their items: the series keys are
 * `<host>-s-<name>`. It is deployed, so the worker evaluates those thresholds.
 */
export async function createOrgWithItems(
  db: Database,
  /** Each item on `host` unless it names its own (series key `<host>-s-<name>`). */
  items: { name: string; policy?: ThresholdPolicy | null; host?: string }[],
  host = "h",
): Promise<string> {
  const { organization, user } = await createTestOrg(db);
  const hosts = [...new Set(items.map((i) => i.host ?? host))];
  await mergeConfiguration(
    db,
    { organizationId: organization.id, userId: user.id },
    {
      hosts: (hosts.length > 0 ? hosts : [host]).map((name) => ({
        name,
        alias: null,
        description: "",
        services: [
          {
            name: "s",
            description: "",
            schedules: ["1M"],
            url: "shell://localhost",
            sendServiceData: true,
            items: items
              .filter((i) => (i.host ?? host) === name)
              .map((i) => ({
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
      })),
    },
  );
  // Deployed as stored, unchecked: fixtures may hold what the editor refuses (maxSoft 0: hard at once).
  const snapshot = await readDeploymentSource(db, organization.id);
  await deploySnapshot(db, { organizationId: organization.id, createdBy: null, snapshot, message: "test fixture", rollbackOf: null });
  return organization.id;
}

/** The evaluation shard of each of the organisation's series, by key (series.shard). */
export async function seriesShards(db: Database, organizationId: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ key: string; shard: number }>(db, `SELECT key, shard FROM series WHERE organization_id = $1`, [
    organizationId,
  ]);
  return new Map(rows.map((r) => [r.key, r.shard]));
}

/**
 * Host names (`host<i>`) whose series fall `perShard` into each evaluation shard, shard by shard:
 * a series' shard follows its key's host (series.shard), so fixtures that need series in
 * different shards, or evenly spread, put them on these hosts. Asked of the database's own
 * evaluation_shard, so they follow it.
 */
export async function hostsByShard(db: Database, perShard = 1): Promise<string[][]> {
  const rows = await queryRows<{ shard: number; hosts: string[] }>(
    db,
    `SELECT shard, (array_agg(host ORDER BY i))[1:$1] AS hosts
     FROM (SELECT i, 'host' || i AS host, evaluation_shard('host' || i || '-s-x') AS shard FROM generate_series(0, 64 * $1) i) h
     GROUP BY shard ORDER BY shard`,
    [perShard],
  );
  return rows.map((r) => r.hosts);
}
