import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Database } from "@tidemark/db/client";
import { MigrationError, readMigrations } from "@tidemark/db/migrate";
import { testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOf, prismaOf } from "../src/database.ts";
import { migrate } from "../src/migrate.ts";
import { MIGRATIONS_DIR } from "../src/paths.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

async function withClient<T>(f: (client: import("pg").PoolClient) => Promise<T>): Promise<T> {
  const client = await poolOf(db).connect();
  try {
    return await f(client);
  } finally {
    client.release();
  }
}

describe("migrations", () => {
  it("are recorded in _prisma_migrations exactly as Prisma records them", async () => {
    const files = await readMigrations(MIGRATIONS_DIR);
    const { rows } = await poolOf(db).query(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY migration_name`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, file] of files.entries()) {
      expect(rows[i].checksum).toBe(file.checksum);
      expect(rows[i].checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[i].finished_at).toBeInstanceOf(Date);
      expect(rows[i].applied_steps_count).toBe(1);
    }
  });

  it("re-running applies nothing", async () => {
    const result = await withClient((c) => migrate(c, MIGRATIONS_DIR));
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied).toBe((await readMigrations(MIGRATIONS_DIR)).length);
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tm-migrations-"));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      const [first] = await readMigrations(dir);
      const file = path.join(dir, first!.name, "migration.sql");
      await writeFile(file, `${await readFile(file, "utf8")}\n-- edited\n`);
      await expect(withClient((c) => migrate(c, dir))).rejects.toThrow(/was changed after it was applied/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses to go on after a half-applied migration, naming it and the way out", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tm-migrations-"));
    const name = "29990101000000_half_applied";
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, "migration.sql"), "SELECT 1;\n");
      await poolOf(db).query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES (gen_random_uuid()::text, 'x', $1, now())`,
        [name],
      );
      const error = await withClient((c) => migrate(c, dir)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(new RegExp(`${name} started at .* never finished.*rolled_back_at`));
    } finally {
      await poolOf(db).query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [name]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rolls back a failing transactional migration completely and records nothing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "tm-migrations-"));
    const name = "29990101000001_broken";
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, "migration.sql"), "CREATE TABLE tm_should_vanish (id int);\nSELECT no_such_function();\n");
      await expect(withClient((c) => migrate(c, dir))).rejects.toThrow(/29990101000001_broken failed: .*no_such_function/);
      const table = await poolOf(db).query(`SELECT to_regclass('tm_should_vanish') AS t`);
      expect(table.rows[0].t).toBeNull();
      const recorded = await poolOf(db).query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [name]);
      expect(recorded.rowCount).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Prisma scalar types and the PostgreSQL types the SQL migrations must use for them. */
const EXPECTED_TYPES: Record<string, (column: { data_type: string; udt_name: string }) => boolean> = {
  String: (c) => ["text", "uuid"].includes(c.udt_name),
  Int: (c) => c.udt_name === "int4",
  BigInt: (c) => c.udt_name === "int8",
  Float: (c) => c.udt_name === "float8",
  Boolean: (c) => c.udt_name === "bool",
  DateTime: (c) => c.udt_name === "timestamptz",
  Json: (c) => c.udt_name === "jsonb",
};

describe("the Prisma schema and the migrated database agree", () => {
  it("every model is a table and every scalar field a column of the right type and nullability", async () => {
    const schema = await readFile(path.join(MIGRATIONS_DIR, "..", "schema.prisma"), "utf8");
    const models = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
    const enums = new Map([...schema.matchAll(/^enum (\w+) \{[\s\S]*?@@map\("(\w+)"\)/gm)].map((m) => [m[1]!, m[2]!]));
    expect(models.length).toBeGreaterThan(20);
    const { rows: columns } = await poolOf(db).query<{
      table_name: string;
      column_name: string;
      data_type: string;
      udt_name: string;
      is_nullable: "YES" | "NO";
    }>(`SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`);
    const problems: string[] = [];
    for (const [, model, body] of models) {
      const table = /@@map\("(\w+)"\)/.exec(body!)?.[1] ?? model!;
      const tableColumns = columns.filter((c) => c.table_name === table);
      if (tableColumns.length === 0) {
        problems.push(`model ${model}: no table ${table}`);
        continue;
      }
      for (const line of body!.split("\n")) {
        const field = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
        if (!field || line.trim().startsWith("//") || line.trim().startsWith("@@")) continue;
        const [, name, type, list, optional, rest] = field;
        const isScalar = type! in EXPECTED_TYPES || enums.has(type!);
        if (!isScalar) continue;
        const columnName = /@map\("(\w+)"\)/.exec(rest!)?.[1] ?? name!;
        const column = tableColumns.find((c) => c.column_name === columnName);
        if (!column) {
          problems.push(`${model}.${name}: no column ${table}.${columnName}`);
          continue;
        }
        // Arrays are `_<element>` in udt_name.
        if (list && !column.udt_name.startsWith("_")) problems.push(`${model}.${name}: list but column is ${column.udt_name}`);
        const element = { ...column, udt_name: list ? column.udt_name.slice(1) : column.udt_name };
        const typeOk = enums.has(type!) ? element.udt_name === enums.get(type!) : EXPECTED_TYPES[type!]!(element);
        if (!typeOk) problems.push(`${model}.${name}: ${type}${list ?? ""} but column is ${column.udt_name}`);
        const nullable = column.is_nullable === "YES";
        if (!list && nullable !== Boolean(optional))
          problems.push(`${model}.${name}: optional=${Boolean(optional)} but nullable=${nullable}`);
      }
      const fieldColumns = new Set(
        body!
          .split("\n")
          .map((l) => /^\s+(\w+)\s+(\w+)(\[\])?\??(.*)$/.exec(l))
          .filter((m): m is RegExpExecArray => !!m && (m[2]! in EXPECTED_TYPES || enums.has(m[2]!)))
          .map((m) => /@map\("(\w+)"\)/.exec(m[4]!)?.[1] ?? m[1]!),
      );
      for (const c of tableColumns)
        if (!fieldColumns.has(c.column_name)) problems.push(`${table}.${c.column_name}: column missing from the Prisma model ${model}`);
    }
    expect(problems).toEqual([]);
  });

  it("Prisma reads and writes through the adapter", async () => {
    const slug = `agree-${Date.now()}`;
    const org = await prismaOf(db).organization.create({ data: { slug, name: "Agreement" } });
    const found = await prismaOf(db).organization.findUnique({ where: { slug } });
    expect(found?.id).toBe(org.id);
    await prismaOf(db).organization.delete({ where: { id: org.id } });
  });
});
