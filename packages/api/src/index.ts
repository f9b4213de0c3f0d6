export type { Context } from "./context.ts";
export { type AppRouter, appRouter, createCaller } from "./root.ts";
export { roleAtLeast } from "./trpc.ts";
