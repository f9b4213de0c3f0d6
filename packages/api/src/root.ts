import { dashboardRouter } from "./routers/dashboard.ts";
import { sessionRouter } from "./routers/session.ts";
import { configRouter } from "./routers/config.ts";
import { thresholdsRouter } from "./routers/thresholds.ts";
import { previewRouter } from "./routers/preview.ts";
import { bischeckRouter } from "./routers/bischeck.ts";
import { deployRouter } from "./routers/deploy.ts";
import { agentsRouter } from "./routers/agents.ts";
import { alertsRouter } from "./routers/alerts.ts";
import { createCallerFactory, createTRPCRouter } from "./trpc.ts";

export const appRouter = createTRPCRouter({
  session: sessionRouter,
  dashboard: dashboardRouter,
  config: configRouter,
  thresholds: thresholdsRouter,
  preview: previewRouter,
  bischeck: bischeckRouter,
  deploy: deployRouter,
  agents: agentsRouter,
  alerts: alertsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
