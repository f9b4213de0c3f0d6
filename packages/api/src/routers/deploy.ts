import { countDeliveries, deliveryState, isSettled } from "@tidemark/config-render";
import {
  type Deployed,
  DraftInvalidError,
  deploymentChange,
  deploymentProgress,
  deploymentSnapshot,
  deploySnapshot,
  listDeployments,
  planDeployment,
  readDraftSnapshot,
  readSnapshot,
  SnapshotUnreadableError,
} from "@tidemark/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";
import { auditedBy } from "./audit.ts";

/** The data layer's refusals as the client's errors: a draft the model refuses is the client's to fix. */
async function orClientError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DraftInvalidError) throw new TRPCError({ code: "BAD_REQUEST", message: error.message });
    if (error instanceof SnapshotUnreadableError) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: error.message });
    throw error;
  }
}

const deployedSummary = (deployed: Deployed) => ({ id: deployed.id, version: deployed.version, targets: deployed.agents.length });

export const deployRouter = createTRPCRouter({
  /** What a deploy of the draft would change: per agent its checks, per item what the worker evaluates, old → new. */
  preview: viewerProcedure.query(({ ctx }) =>
    orClientError(async () => planDeployment(ctx.db, ctx.org.id, await readDraftSnapshot(ctx.db, ctx.org.id))),
  ),

  deploy: editorProcedure.input(z.object({ message: z.string().trim().max(500).default("") })).mutation(({ ctx, input }) =>
    orClientError(async () => {
      const snapshot = await readDraftSnapshot(ctx.db, ctx.org.id);
      const deployed = await deploySnapshot(
        ctx.db,
        { organizationId: ctx.org.id, createdBy: ctx.org.userId, snapshot, message: input.message, rollbackOf: null },
        auditedBy(ctx, deploymentChange({ message: input.message, rollbackOf: null })),
      );
      return deployedSummary(deployed);
    }),
  ),

  /** A new deployment whose snapshot is an earlier version's, thresholds and checks alike: history stays immutable. */
  rollback: editorProcedure.input(z.object({ version: z.number().int().positive() })).mutation(({ ctx, input }) =>
    orClientError(async () => {
      const earlier = await deploymentSnapshot(ctx.db, ctx.org.id, input.version);
      if (!earlier) throw new TRPCError({ code: "NOT_FOUND", message: `no version ${input.version} in this organisation` });
      const snapshot = readSnapshot(earlier.snapshot, `version ${input.version}`);
      const message = `roll back to version ${input.version}`;
      const deployed = await deploySnapshot(
        ctx.db,
        { organizationId: ctx.org.id, createdBy: ctx.org.userId, snapshot, message, rollbackOf: input.version },
        auditedBy(ctx, deploymentChange({ message, rollbackOf: input.version })),
      );
      return deployedSummary(deployed);
    }),
  ),

  list: viewerProcedure
    .input(z.object({ limit: z.number().int().min(1).max(200).default(30) }).default({ limit: 30 }))
    .query(async ({ ctx, input }) => {
      const now = Date.now();
      return (await listDeployments(ctx.db, ctx.org.id, input.limit)).map(({ targets, ...d }) => ({
        ...d,
        agents: targets.length,
        counts: countDeliveries(targets.map((t) => deliveryState(t, now))),
      }));
    }),

  /** Per agent, one truthful state; the counts are made from the same rows. */
  progress: viewerProcedure.input(z.object({ version: z.number().int().positive() })).query(async ({ ctx, input }) => {
    const targets = await deploymentProgress(ctx.db, ctx.org.id, input.version);
    if (!targets) throw new TRPCError({ code: "NOT_FOUND", message: `no version ${input.version} in this organisation` });
    const now = Date.now();
    const rows = targets.map((t) => ({
      agentId: t.agentId,
      agent: t.agent,
      attempts: t.attempts,
      updatedAt: t.updatedAt,
      state: deliveryState(t, now),
    }));
    const states = rows.map((r) => r.state);
    return { version: input.version, targets: rows, counts: countDeliveries(states), done: states.every(isSettled) };
  }),
});
