import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient } from "./generated/prisma/client.ts";
export * as PrismaTypes from "./generated/prisma/client.ts";

export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}

/** The client Prisma hands an interactive transaction's callback. */
export type PrismaTransaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
