import type pg from "pg";
import { checkConnection, createPool, type PoolOptions } from "./connection.ts";
import { type DatabaseInfo, databaseInfo } from "./database-kind.ts";
import { createPrisma, type PrismaClient } from "./prisma.ts";

/** Everything that talks to PostgreSQL goes through one of these per process. */
export interface Database {
  url: string;
  pool: pg.Pool;
  prisma: PrismaClient;
  info: DatabaseInfo;
  close(): Promise<void>;
}

export async function connectDatabase(url: string, opts: PoolOptions = {}): Promise<Database> {
  const pool = createPool(url, opts);
  await checkConnection(pool, url);
  const info = await databaseInfo(pool);
  // Created on first use: the worker (plain SQL throughout) never uses it, and Prisma's client
  // with its query compiler costs a process tens of megabytes.
  let prisma: PrismaClient | null = null;
  let closed = false;
  return {
    url,
    pool,
    get prisma() {
      prisma ??= createPrisma(pool);
      return prisma;
    },
    info,
    async close() {
      if (closed) return;
      closed = true;
      await prisma?.$disconnect();
      await pool.end();
    },
  };
}
