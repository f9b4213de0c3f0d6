import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient } from "./generated/prisma/client.ts";
export * as PrismaTypes from "./generated/prisma/client.ts";

export function createPrisma(pool: pg.Pool): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool) });
}
