import type pg from "pg";
import { checkConnection, createPool, type PoolOptions } from "./connection.ts";
import { type DatabaseInfo, databaseInfo } from "./database-kind.ts";
import { createPrisma, type PrismaClient } from "./prisma.ts";

/**
 * The key of a Database's connections. Exported to this package's modules only (no entry point
 * re-exports it): callers hold a Database and pass it back to db's functions, never reach the SQL.
 * From the global symbol registry, not `Symbol()`: Next.js loads this module once per server layer
 * (route handlers, server components), and the web process shares one Database across them
 * (globalThis), so every copy of this module must name the same key.
 */
export const CONNECTIONS: unique symbol = Symbol.for("tidemark.db.connections");

interface Connections {
  pool: pg.Pool;
  readonly prisma: PrismaClient;
}

/** Everything that talks to PostgreSQL goes through one of these per process. */
export interface Database {
  readonly url: string;
  readonly info: DatabaseInfo;
  close(): Promise<void>;
  readonly [CONNECTIONS]: Connections;
}

/** The database's pool (package-internal). */
export function poolOf(db: Database): pg.Pool {
  return db[CONNECTIONS].pool;
}

/** The database's Prisma client, created on first use (package-internal). */
export function prismaOf(db: Database): PrismaClient {
  return db[CONNECTIONS].prisma;
}

/** Whether `target` is a Database rather than one of its connections (a transaction's client). */
export function isDatabase(target: object): target is Database {
  return CONNECTIONS in target;
}

export async function connectDatabase(url: string, opts: PoolOptions = {}): Promise<Database> {
  const pool = createPool(url, opts);
  await checkConnection(pool, url);
  return databaseOver(pool, url, await databaseInfo(pool));
}

/** A Database over `pool`, taken to be `info` (connectDatabase, and testing's unchecked database). */
export function databaseOver(pool: pg.Pool, url: string, info: DatabaseInfo): Database {
  // Created on first use: the worker (plain SQL throughout) never uses it, and Prisma's client
  // with its query compiler costs a process tens of megabytes.
  let prisma: PrismaClient | null = null;
  let closed = false;
  return {
    url,
    info,
    [CONNECTIONS]: {
      pool,
      get prisma() {
        prisma ??= createPrisma(pool);
        return prisma;
      },
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma?.$disconnect();
      await pool.end();
    },
  };
}
