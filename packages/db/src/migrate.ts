import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { type Database, poolOf } from "./database.ts";
import { type DatabaseKind, detectDatabaseKind } from "./database-kind.ts";
import { MIGRATIONS_DIR } from "./paths.ts";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each in
 * `_prisma_migrations` exactly as Prisma Migrate does (same table, same sha256 checksum of the
 * file), so `prisma migrate deploy` sees them as applied where its engine can be had.
 *
 * Two directives extend plain SQL, because TimescaleDB objects need them:
 * - `-- tidemark:no-transaction` runs the file statement by statement outside a transaction
 *   (continuous aggregates refuse to be created inside one);
 * - `-- tidemark:section timescaledb|plain|always` keeps the following statements only for
 *   that kind of database.
 */

export class MigrationError extends Error {
  override name = "MigrationError";
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  kind: DatabaseKind;
  applied: string[];
  alreadyApplied: number;
}

// Prisma's own table definition (migration engine, PostgreSQL flavour).
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant works; it keeps two starting processes from applying the same migration.
const MIGRATION_LOCK_KEY = 72_707_369;

export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

interface Statement {
  section: "timescaledb" | "plain" | "always";
  sql: string;
}

/** Splits a file into statements at `;` ending a line, outside dollar-quoted bodies. */
export function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = [];
  let section: Statement["section"] = "always";
  let current: string[] = [];
  let inDollarQuote = false;
  const flush = () => {
    const text = current.join("\n").trim();
    if (text.replace(/--.*$/gm, "").trim()) statements.push({ section, sql: text });
    current = [];
  };
  for (const line of sql.split("\n")) {
    const directive = /^--\s*tidemark:section\s+(timescaledb|plain|always)\s*$/.exec(line.trim());
    if (directive && !inDollarQuote) {
      flush();
      section = directive[1] as Statement["section"];
      continue;
    }
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inDollarQuote = !inDollarQuote;
    if (!inDollarQuote && /;\s*(--.*)?$/.test(line)) flush();
  }
  flush();
  return statements;
}

function statementsFor(file: MigrationFile, kind: DatabaseKind): string[] {
  return splitStatements(file.sql)
    .filter((s) => s.section === "always" || (s.section === "timescaledb") === (kind === "timescaledb"))
    .map((s) => s.sql);
}

export async function migrate(client: pg.ClientBase, migrationsDir: string): Promise<MigrationResult> {
  const files = await readMigrations(migrationsDir);
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
  try {
    const kind = await detectDatabaseKind(client, { install: true });
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      started_at: Date;
    }>(`SELECT migration_name, checksum, finished_at, rolled_back_at, started_at FROM "_prisma_migrations"`);
    const recorded = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    const known = new Set(files.map((f) => f.name));
    for (const r of recorded.values()) {
      if (!known.has(r.migration_name)) {
        throw new MigrationError(
          `The database has migration ${r.migration_name}, which this checkout does not: it was migrated by a newer Tidemark; run that version or restore a matching backup.`,
        );
      }
    }
    const applied: string[] = [];
    for (const file of files) {
      const row = recorded.get(file.name);
      if (row?.finished_at) {
        if (row.checksum !== file.checksum) {
          throw new MigrationError(
            `Migration ${file.name} was changed after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… on disk): restore the original file; add a new migration for new changes.`,
          );
        }
        continue;
      }
      if (row) {
        throw new MigrationError(
          `Migration ${file.name} started at ${row.started_at.toISOString()} but never finished, so the database may be half-migrated: inspect it, undo what the migration did, then run UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${file.name}' and start again.`,
        );
      }
      await applyMigration(client, file, kind);
      applied.push(file.name);
    }
    return { kind, applied, alreadyApplied: files.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
  }
}

/** Applies the checkout's migrations (or those in `migrationsDir`) on one connection of the database. */
export async function migrateDatabase(db: Database, migrationsDir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const client = await poolOf(db).connect();
  try {
    return await migrate(client, migrationsDir);
  } finally {
    client.release();
  }
}

async function applyMigration(client: pg.ClientBase, file: MigrationFile, kind: DatabaseKind): Promise<void> {
  const id = randomUUID();
  const statements = statementsFor(file, kind);
  const transactional = !/^--\s*tidemark:no-transaction\s*$/m.test(file.sql);
  await client.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
    [id, file.checksum, file.name],
  );
  try {
    if (transactional) {
      await client.query("BEGIN");
      try {
        await client.query(statements.join("\n"));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        // Nothing was applied: forget the attempt so that a fixed file can run again.
        await client.query(`DELETE FROM "_prisma_migrations" WHERE id = $1`, [id]);
        throw error;
      }
    } else {
      for (const statement of statements) await client.query(statement);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, message]).catch(() => {});
    throw new MigrationError(`Migration ${file.name} failed: ${message}`);
  }
  await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
}
