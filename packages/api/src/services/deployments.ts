import {
  countDeliveries,
  type DeployPlan,
  deliveryState,
  isSettled,
  planDeployment,
  planStoredAgents,
  readSnapshot,
  rollbackMessage,
} from "@tidemark/config-render";
import type { Database } from "@tidemark/db/client";
import {
  agentDeployStates,
  type Deployed,
  deploymentChange,
  deploymentProgress,
  deploymentSnapshot,
  deploySnapshot,
  latestDeployment,
  listDeployments,
  readDraftSnapshot,
} from "@tidemark/db/fleet";
import type { AuditActor } from "@tidemark/db/organizations";
import { TRPCError } from "@trpc/server";
import { auditedBy } from "./audit.ts";

/**
 * Deployments as the Deploy screen uses them: what deploying the draft would change, deploying
 * it, rolling back, and how each version's delivery stands. The decisions are
 * @tidemark/config-render's; storing is @tidemark/db's `deploySnapshot`, the one path seeds and
 * tests take too.
 */

/** Who deploys: the caller's organisation, user and audit actor. */
export interface Deployer {
  db: Database;
  org: { id: string; userId: string; actor: AuditActor };
}

const noVersion = (version: number) => new TRPCError({ code: "NOT_FOUND", message: `no version ${version} in this organisation` });

/** What a deploy of the draft would change: per agent its checks, per item what the worker evaluates, old → new. */
export async function previewDraftDeployment(db: Database, organizationId: string, now = Date.now()): Promise<DeployPlan> {
  const snapshot = await readDraftSnapshot(db, organizationId);
  const [deployed, states] = await Promise.all([latestDeployment(db, organizationId), agentDeployStates(db, organizationId)]);
  return planDeployment(snapshot, deployed, planStoredAgents(snapshot, states, now));
}

const deployedSummary = (deployed: Deployed) => ({ id: deployed.id, version: deployed.version, targets: deployed.agents.length });

/** Deploys the draft as the organisation's next version. */
export async function deployDraftVersion(ctx: Deployer, message: string) {
  const snapshot = await readDraftSnapshot(ctx.db, ctx.org.id);
  const deployed = await deploySnapshot(
    ctx.db,
    { organizationId: ctx.org.id, createdBy: ctx.org.userId, snapshot, message, rollbackOf: null },
    auditedBy(ctx, deploymentChange({ message, rollbackOf: null })),
  );
  return deployedSummary(deployed);
}

/** A new deployment whose snapshot is an earlier version's, thresholds and checks alike: history stays immutable. */
export async function rollBackTo(ctx: Deployer, version: number) {
  const earlier = await deploymentSnapshot(ctx.db, ctx.org.id, version);
  if (!earlier) throw noVersion(version);
  const snapshot = readSnapshot(earlier.snapshot, `version ${version}`);
  const message = rollbackMessage(version);
  const deployed = await deploySnapshot(
    ctx.db,
    { organizationId: ctx.org.id, createdBy: ctx.org.userId, snapshot, message, rollbackOf: version },
    auditedBy(ctx, deploymentChange({ message, rollbackOf: version })),
  );
  return deployedSummary(deployed);
}

/** The latest versions, each with how many agents it went to and how their deliveries stand. */
export async function deploymentHistory(db: Database, organizationId: string, limit: number, now = Date.now()) {
  return (await listDeployments(db, organizationId, limit)).map(({ targets, ...d }) => ({
    ...d,
    agents: targets.length,
    counts: countDeliveries(targets.map((t) => deliveryState(t, now))),
  }));
}

/** Per agent, one truthful state; the counts are made from the same rows. */
export async function versionProgress(db: Database, organizationId: string, version: number, now = Date.now()) {
  const targets = await deploymentProgress(db, organizationId, version);
  if (!targets) throw noVersion(version);
  const rows = targets.map((t) => ({
    agentId: t.agentId,
    agent: t.agent,
    attempts: t.attempts,
    updatedAt: t.updatedAt,
    state: deliveryState(t, now),
  }));
  const states = rows.map((r) => r.state);
  return { version, targets: rows, counts: countDeliveries(states), done: states.every(isSettled) };
}
