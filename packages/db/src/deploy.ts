import {
  type AgentPlan,
  type DeploymentSnapshot,
  deploymentSnapshotSchema,
  diffEvaluation,
  evaluatedItems,
  type ItemEvaluationChange,
  planAgents,
  servicesRunningNowhere,
  snapshotHash,
} from "@tidemark/config-render";
import type { AuditChange, Audited } from "./audit.ts";
import type { Database } from "./database.ts";
import { agentDeployStates, createDeployment, readDeploymentSource } from "./deployments.ts";

/**
 * Deploying: freezing the draft (or an earlier version, for a rollback) into the organisation's
 * next version. The decisions — what each agent runs, what changes — are @tidemark/config-render's;
 * this module loads what they need and stores the result.
 */

export class SnapshotUnreadableError extends Error {}

/** A stored snapshot, read with today's schema (versions from before alert settings get the defaults). */
export function readSnapshot(value: unknown, label: string): DeploymentSnapshot {
  const parsed = deploymentSnapshotSchema.safeParse(value);
  if (!parsed.success) throw new SnapshotUnreadableError(`${label} holds a snapshot this server cannot read`);
  return parsed.data;
}

export class DraftInvalidError extends Error {}

/** The draft as a snapshot; refused when the model does not accept it (agents must never receive such a one). */
export async function readDraftSnapshot(db: Database, organizationId: string): Promise<DeploymentSnapshot> {
  const source = deploymentSnapshotSchema.safeParse(await readDeploymentSource(db, organizationId));
  if (!source.success) {
    const problems = source.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".")}: ${i.message}`)
      .join("; ");
    throw new DraftInvalidError(`the configuration cannot be deployed: ${problems}`);
  }
  return source.data;
}

export interface DeployedVersion {
  version: number;
  createdAt: Date;
  snapshot: DeploymentSnapshot;
}

/** The organisation's latest deployment: what runs (null: it never deployed). */
export async function latestDeployment(db: Database, organizationId: string): Promise<DeployedVersion | null> {
  const { rows } = await db.pool.query<{ version: number; created_at: Date; snapshot: unknown }>(
    `SELECT version, created_at, snapshot FROM deployments WHERE organization_id = $1 ORDER BY version DESC LIMIT 1`,
    [organizationId],
  );
  const row = rows[0];
  return row ? { version: row.version, createdAt: row.created_at, snapshot: readSnapshot(row.snapshot, `version ${row.version}`) } : null;
}

async function agentPlans(db: Database, organizationId: string, snapshot: DeploymentSnapshot, now: number): Promise<AgentPlan[]> {
  const states = await agentDeployStates(db, organizationId);
  return planAgents(
    snapshot,
    states.map((s) => ({
      ...s,
      appliedSnapshot: s.appliedSnapshot ? readSnapshot(s.appliedSnapshot, `version ${s.appliedVersion}`) : null,
    })),
    now,
  );
}

export interface DeployPlan {
  configHash: string;
  /** The version deployed now (null: none yet). */
  deployedVersion: number | null;
  /** Whether `snapshot` differs from the deployed version. */
  differs: boolean;
  /** Per agent, its checks old → new against what it applied. */
  agents: AgentPlan[];
  /** Per item, what the worker evaluates old → new against the deployed version. */
  evaluation: ItemEvaluationChange[];
  /** Agent-run services no active agent is assigned. */
  runningNowhere: { host: string; service: string }[];
}

/** What deploying `snapshot` would change, before anyone presses Deploy. */
export async function planDeployment(
  db: Database,
  organizationId: string,
  snapshot: DeploymentSnapshot,
  now = Date.now(),
): Promise<DeployPlan> {
  const [deployed, agents] = await Promise.all([latestDeployment(db, organizationId), agentPlans(db, organizationId, snapshot, now)]);
  const configHash = snapshotHash(snapshot);
  return {
    configHash,
    deployedVersion: deployed?.version ?? null,
    differs: deployed === null || snapshotHash(deployed.snapshot) !== configHash,
    agents,
    evaluation: diffEvaluation(deployed?.snapshot ?? null, snapshot),
    runningNowhere: servicesRunningNowhere(snapshot, new Set(agents.map((a) => a.agentId))),
  };
}

export interface Deployed {
  id: string;
  version: number;
  configHash: string;
  /** Agents the version was sent to (their rendering changed). */
  agents: string[];
}

/** Stores `snapshot` as the next version: targets the agents whose checks change and makes it what the worker evaluates. */
export async function deploySnapshot(
  db: Database,
  input: { organizationId: string; createdBy: string | null; snapshot: DeploymentSnapshot; message: string; rollbackOf: number | null },
  audit?: Audited<Deployed>,
): Promise<Deployed> {
  const plans = await agentPlans(db, input.organizationId, input.snapshot, Date.now());
  const affected = plans.filter((p) => p.affected);
  const configHash = snapshotHash(input.snapshot);
  const agents = affected.map((p) => p.name);
  const created = await createDeployment(
    db,
    {
      organizationId: input.organizationId,
      createdBy: input.createdBy,
      snapshot: input.snapshot,
      configHash,
      message: input.message,
      rollbackOf: input.rollbackOf,
      targets: affected.map((p) => ({ agentId: p.agentId, renderedHash: p.renderedHash })),
      evaluated: evaluatedItems(input.snapshot),
    },
    audit && { actor: audit.actor, describe: (stored) => audit.describe({ ...stored, configHash, agents }) },
  );
  return { ...created, configHash, agents };
}

/** The audit entry of a deployment or rollback (written in the deployment's transaction). */
export function deploymentChange(opts: { message: string; rollbackOf: number | null }): (deployed: Deployed) => AuditChange {
  return (deployed) => ({
    action: opts.rollbackOf === null ? "deployment.create" : "deployment.rollback",
    targetType: "deployment",
    targetId: deployed.id,
    after: {
      version: deployed.version,
      configHash: deployed.configHash,
      rollbackOf: opts.rollbackOf,
      message: opts.message,
      agents: deployed.agents,
    },
  });
}

/** Deploys the draft as it is (the seeder, tests and the Deploy button). */
export async function deployDraft(
  db: Database,
  input: { organizationId: string; createdBy: string | null; message: string },
  audit?: Audited<Deployed>,
): Promise<Deployed> {
  const snapshot = await readDraftSnapshot(db, input.organizationId);
  return deploySnapshot(db, { ...input, snapshot, rollbackOf: null }, audit);
}
