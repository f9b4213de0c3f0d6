export type { Context } from "./context.ts";
export { type AppRouter, appRouter, createCaller } from "./root.ts";
export { SHARED_READ_MAX_ENTRIES, SHARED_READ_TTL_MS, SharedReads } from "./shared-reads.ts";
export { roleAtLeast } from "./trpc.ts";
