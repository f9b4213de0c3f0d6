import { dashboardRouter } from "./routers/dashboard.ts";
import { sessionRouter } from "./routers/session.ts";
import { createCallerFactory, createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  session: sessionRouter,
  dashboard: dashboardRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
