export * from "./audit.ts";
export * from "./auth.ts";
export * from "./configuration.ts";
export * from "./connection.ts";
export * from "./database.ts";
export * from "./database-kind.ts";
export * from "./metrics.ts";
export * from "./migrate.ts";
export { createPrisma, type PrismaClient, PrismaTypes } from "./prisma.ts";
