import { type Database, poolOf } from "./database.ts";
import { type DatabaseInfo, databaseInfo } from "./database-kind.ts";

/** What the database is now (`db.info` is what it was at connection). */
export function currentDatabaseInfo(db: Database): Promise<DatabaseInfo> {
  return databaseInfo(poolOf(db));
}

/**
 * How many migrations the database has finished (and not rolled back), for the health route. Apart
 * from migrate.ts on purpose: that one reads prisma/migrations from disk, which the web app's bundle
 * must not try to resolve; counting needs only the database.
 */
export async function appliedMigrationCount(db: Database): Promise<number> {
  const { rows } = await poolOf(db).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return rows[0]?.n ?? 0;
}
