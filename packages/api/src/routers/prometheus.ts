import { prometheusCreatesSeries, setPrometheusCreatesSeries } from "@tidemark/db/metrics";
import { z } from "zod";
import { auditedBy } from "../services/audit.ts";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc.ts";

/** The organisation's Prometheus remote-write settings. */
export const prometheusRouter = createTRPCRouter({
  settings: viewerProcedure.query(async ({ ctx }) => ({ createsSeries: await prometheusCreatesSeries(ctx.db, ctx.org.id) })),
  /** Whether remote write creates the hosts, services and items of series it has not seen (admins). */
  setCreatesSeries: adminProcedure.input(z.object({ on: z.boolean() })).mutation(async ({ ctx, input }) => {
    await setPrometheusCreatesSeries(
      ctx.db,
      ctx.org.id,
      input.on,
      auditedBy(ctx, (change) => ({
        action: "prometheus.settings",
        targetType: "organization",
        targetId: ctx.org.id,
        before: { createsSeries: change.before },
        after: { createsSeries: change.after },
      })),
    );
    return { createsSeries: input.on };
  }),
});
