import { prometheusCreatesSeries, recordAudit, setPrometheusCreatesSeries } from "@tidemark/db";
import { z } from "zod";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc.ts";

/** The organisation's Prometheus remote-write settings. */
export const prometheusRouter = createTRPCRouter({
  settings: viewerProcedure.query(async ({ ctx }) => ({ createsSeries: await prometheusCreatesSeries(ctx.db, ctx.org.id) })),
  /** Whether remote write creates the hosts, services and items of series it has not seen (admins). */
  setCreatesSeries: adminProcedure.input(z.object({ on: z.boolean() })).mutation(async ({ ctx, input }) => {
    const before = await setPrometheusCreatesSeries(ctx.db, ctx.org.id, input.on);
    await recordAudit(ctx.db, {
      organizationId: ctx.org.id,
      actorUserId: ctx.org.userId,
      actorKind: "user",
      action: "prometheus.settings",
      targetType: "organization",
      targetId: ctx.org.id,
      before: { createsSeries: before },
      after: { createsSeries: input.on },
    });
    return { createsSeries: input.on };
  }),
});
