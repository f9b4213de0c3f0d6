import { z } from "zod";
import { deployDraftVersion, deploymentHistory, previewDraftDeployment, rollBackTo, versionProgress } from "../services/deployments.ts";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";

export const deployRouter = createTRPCRouter({
  /** What a deploy of the draft would change: per agent its checks, per item what the worker evaluates, old → new. */
  preview: viewerProcedure.query(({ ctx }) => previewDraftDeployment(ctx.db, ctx.org.id)),

  deploy: editorProcedure
    .input(z.object({ message: z.string().trim().max(500).default("") }))
    .mutation(({ ctx, input }) => deployDraftVersion(ctx, input.message)),

  /** A new deployment whose snapshot is an earlier version's, thresholds and checks alike: history stays immutable. */
  rollback: editorProcedure
    .input(z.object({ version: z.number().int().positive() }))
    .mutation(({ ctx, input }) => rollBackTo(ctx, input.version)),

  list: viewerProcedure
    .input(z.object({ limit: z.number().int().min(1).max(200).default(30) }).default({ limit: 30 }))
    .query(({ ctx, input }) => deploymentHistory(ctx.db, ctx.org.id, input.limit)),

  /** Per agent, one truthful state; the counts are made from the same rows. */
  progress: viewerProcedure
    .input(z.object({ version: z.number().int().positive() }))
    .query(({ ctx, input }) => versionProgress(ctx.db, ctx.org.id, input.version)),
});
