import { PrismaPg } from "@prisma/adapter-pg";
import { Debug } from "@prisma/client/runtime/client";
import { clearLogs } from "@prisma/debug";
import type pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient } from "./generated/prisma/client.ts";
export * as PrismaTypes from "./generated/prisma/client.ts";

export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}

/** The client Prisma hands an interactive transaction's callback. */
export type PrismaTransaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** How many debug calls Prisma's history keeps (MAX_ARGS_HISTORY in @prisma/debug). */
const PRISMA_DEBUG_HISTORY = 100;
const pushOut = Debug("tidemark:forget");

/**
 * Prisma keeps the arguments of its last 100 debug calls, debugging on or not (for its crash
 * reports): every statement with all its parameters, in two places, @prisma/debug (the pg
 * adapter's) and a copy bundled in the client's runtime. After bulk statements of thousands of
 * rows that is hundreds of MB held until a hundred later calls push them out: a 10 000-host import
 * left the web process 350 MB larger (bench/scenarios/web-import-memory.ts). Bulk writers call this
 * when done. The runtime's copy has no way to be cleared, so tiny entries push its old ones out.
 */
export function forgetPrismaHistory(): void {
  clearLogs();
  for (let i = 0; i < PRISMA_DEBUG_HISTORY; i++) pushOut("-");
}
