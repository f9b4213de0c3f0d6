import { previewItem } from "@tidemark/db/metrics";
import { z } from "zod";
import { editablePolicySchema } from "../inputs/policy.ts";
import { createTRPCRouter, viewerProcedure } from "../trpc.ts";

const MAX_WINDOW_MS = 400 * 86_400_000;

/**
 * Preview and backtest. A mutation only because the draft policy travels in the body (a query
 * would put it in the URL); it changes nothing.
 */
export const previewRouter = createTRPCRouter({
  run: viewerProcedure
    .input(
      z
        .object({ itemId: z.uuid(), from: z.date(), to: z.date(), draft: editablePolicySchema.nullable() })
        .refine((v) => v.from < v.to, "from must be before to")
        .refine((v) => v.to.getTime() - v.from.getTime() <= MAX_WINDOW_MS, "at most 400 days"),
    )
    .mutation(({ ctx, input }) => previewItem(ctx.db, ctx.org.id, input)),
});
