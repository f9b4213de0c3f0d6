import { agentsRouter } from "./routers/agents.ts";
import { alertsRouter } from "./routers/alerts.ts";
import { auditRouter } from "./routers/audit.ts";
import { bischeckRouter } from "./routers/bischeck.ts";
import { configRouter } from "./routers/config.ts";
import { dashboardRouter } from "./routers/dashboard.ts";
import { deployRouter } from "./routers/deploy.ts";
import { invitationsRouter } from "./routers/invitations.ts";
import { membersRouter } from "./routers/members.ts";
import { organizationsRouter } from "./routers/organizations.ts";
import { previewRouter } from "./routers/preview.ts";
import { prometheusRouter } from "./routers/prometheus.ts";
import { sessionRouter } from "./routers/session.ts";
import { thresholdsRouter } from "./routers/thresholds.ts";
import { tokensRouter } from "./routers/tokens.ts";
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
  organizations: organizationsRouter,
  members: membersRouter,
  invitations: invitationsRouter,
  tokens: tokensRouter,
  audit: auditRouter,
  prometheus: prometheusRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
