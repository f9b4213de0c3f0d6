import {
  type ChecksDiff,
  checksHash,
  type DeploymentSnapshot,
  deploymentSnapshotSchema,
  diffChecks,
  renderChecks,
  snapshotHash,
} from "@tidemark/config-render";
import {
  agentDeployStates,
  createDeployment,
  type Database,
  deploymentProgress,
  deploymentSnapshot,
  listDeployments,
  readDeploymentSource,
  recordAudit,
} from "@tidemark/db";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";

/** An agent counts as online when it long-polled within this window (it re-polls every ~25 s). */
const ONLINE_WINDOW_MS = 60_000;

interface AgentPlan {
  agentId: string;
  name: string;
  online: boolean;
  appliedVersion: number | null;
  renderedHash: string;
  checks: number;
  /** Against what the agent runs now (its applied version). */
  diff: ChecksDiff;
  /** Whether a deployment of this snapshot must reach the agent (its last deployed rendering differs). */
  affected: boolean;
}

function readSnapshot(value: unknown, label: string): DeploymentSnapshot {
  const parsed = deploymentSnapshotSchema.safeParse(value);
  if (!parsed.success) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: `${label} holds a snapshot this server cannot read` });
  return parsed.data;
}

/** Per agent: what the snapshot renders to, and what changes compared with what it runs. */
async function planFor(db: Database, organizationId: string, snapshot: DeploymentSnapshot): Promise<AgentPlan[]> {
  const states = await agentDeployStates(db, organizationId);
  const now = Date.now();
  return states.map((state) => {
    const checks = renderChecks(snapshot, state.agentId);
    const renderedHash = checksHash(checks);
    const running = state.appliedSnapshot
      ? renderChecks(readSnapshot(state.appliedSnapshot, `version ${state.appliedVersion}`), state.agentId)
      : null;
    return {
      agentId: state.agentId,
      name: state.name,
      online: state.lastSeenAt !== null && now - state.lastSeenAt.getTime() < ONLINE_WINDOW_MS,
      appliedVersion: state.appliedVersion,
      renderedHash,
      checks: checks.length,
      diff: diffChecks(running, checks),
      affected: state.latestTargetHash !== renderedHash,
    };
  });
}

async function deploySnapshot(
  db: Database,
  org: { id: string; userId: string },
  snapshot: DeploymentSnapshot,
  opts: { message: string; rollbackOf: number | null },
) {
  const plans = await planFor(db, org.id, snapshot);
  const targets = plans.filter((p) => p.affected).map((p) => ({ agentId: p.agentId, renderedHash: p.renderedHash }));
  const configHash = snapshotHash(snapshot);
  const deployment = await createDeployment(db, {
    organizationId: org.id,
    createdBy: org.userId,
    snapshot,
    configHash,
    message: opts.message,
    rollbackOf: opts.rollbackOf,
    targets,
  });
  await recordAudit(db, {
    organizationId: org.id,
    actorUserId: org.userId,
    actorKind: "user",
    action: opts.rollbackOf === null ? "deployment.create" : "deployment.rollback",
    targetType: "deployment",
    targetId: deployment.id,
    after: {
      version: deployment.version,
      configHash,
      rollbackOf: opts.rollbackOf,
      message: opts.message,
      agents: plans.filter((p) => p.affected).map((p) => p.name),
    },
  });
  return { ...deployment, targets: targets.length };
}

export const deployRouter = createTRPCRouter({
  /** What a deploy of the current configuration would change, per agent. */
  preview: viewerProcedure.query(async ({ ctx }) => {
    const snapshot = await readDeploymentSource(ctx.db, ctx.org.id);
    const agents = await planFor(ctx.db, ctx.org.id, snapshot);
    return { configHash: snapshotHash(snapshot), agents };
  }),

  deploy: editorProcedure.input(z.object({ message: z.string().trim().max(500).default("") })).mutation(async ({ ctx, input }) => {
    // Only a configuration the model accepts is frozen into a version: agents must never receive one that is not.
    const source = deploymentSnapshotSchema.safeParse(await readDeploymentSource(ctx.db, ctx.org.id));
    if (!source.success) {
      const problems = source.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ");
      throw new TRPCError({ code: "BAD_REQUEST", message: `the configuration cannot be deployed: ${problems}` });
    }
    return deploySnapshot(ctx.db, ctx.org, source.data, { message: input.message, rollbackOf: null });
  }),

  /** A new deployment whose snapshot is an earlier version's: history stays immutable. */
  rollback: editorProcedure.input(z.object({ version: z.number().int().positive() })).mutation(async ({ ctx, input }) => {
    const earlier = await deploymentSnapshot(ctx.db, ctx.org.id, input.version);
    if (!earlier) throw new TRPCError({ code: "NOT_FOUND", message: `no version ${input.version} in this organisation` });
    const snapshot = readSnapshot(earlier.snapshot, `version ${input.version}`);
    return deploySnapshot(ctx.db, ctx.org, snapshot, { message: `roll back to version ${input.version}`, rollbackOf: input.version });
  }),

  list: viewerProcedure
    .input(z.object({ limit: z.number().int().min(1).max(200).default(30) }).default({ limit: 30 }))
    .query(({ ctx, input }) => listDeployments(ctx.db, ctx.org.id, input.limit)),

  progress: viewerProcedure.input(z.object({ version: z.number().int().positive() })).query(async ({ ctx, input }) => {
    const targets = await deploymentProgress(ctx.db, ctx.org.id, input.version);
    if (!targets) throw new TRPCError({ code: "NOT_FOUND", message: `no version ${input.version} in this organisation` });
    return { version: input.version, targets, done: targets.every((t) => t.status === "applied" || t.status === "superseded") };
  }),
});
