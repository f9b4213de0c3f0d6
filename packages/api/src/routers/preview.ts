import { PreviewNotFoundError, previewItem } from "@tidemark/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, viewerProcedure } from "../trpc.ts";
import { editablePolicySchema } from "./policy-input.ts";

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
    .mutation(async ({ ctx, input }) => {
      try {
        return await previewItem(ctx.db, ctx.org.id, input);
      } catch (error) {
        if (error instanceof PreviewNotFoundError) throw new TRPCError({ code: "NOT_FOUND", message: error.message });
        throw error;
      }
    }),
});
