import { type EvaluatedItemSpec, evaluatedItems } from "./evaluated.ts";
import { type AgentPlan, type AgentState, planAgents, servicesRunningNowhere } from "./plan.ts";
import { type DeploymentSnapshot, deploymentSnapshotSchema, snapshotHash } from "./snapshot.ts";
import { diffEvaluation, type ItemEvaluationChange } from "./threshold-diff.ts";

/**
 * Deploying, decided: whether a draft may be deployed, how a stored snapshot is read, what a
 * deployment of a snapshot would change, and which agents it is sent to. Loading the draft, the
 * deployed version and the agents' states, and storing the result, are the database's.
 */

/** A stored snapshot this server's schema cannot read: the server's fault, never the client's. */
export class SnapshotUnreadableError extends Error {}

/** A draft the model refuses: the client's to fix (agents must never receive such a one). */
export class DraftInvalidError extends Error {}

/** A stored snapshot, read with today's schema (versions from before alert settings get the defaults). */
export function readSnapshot(value: unknown, label: string): DeploymentSnapshot {
  const parsed = deploymentSnapshotSchema.safeParse(value);
  if (!parsed.success) throw new SnapshotUnreadableError(`${label} holds a snapshot this server cannot read`);
  return parsed.data;
}

/** Problems named in a refused draft, at most. */
const MAX_DRAFT_PROBLEMS = 5;

/** The draft (configuration, assignments, alert settings) as a snapshot, or DraftInvalidError naming its first problems. */
export function draftSnapshot(source: unknown): DeploymentSnapshot {
  const parsed = deploymentSnapshotSchema.safeParse(source);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, MAX_DRAFT_PROBLEMS)
    .map((i) => `${i.path.join(".")}: ${i.message}`)
    .join("; ");
  throw new DraftInvalidError(`the configuration cannot be deployed: ${problems}`);
}

/** An agent as stored: the snapshot it applied not yet read. */
export type StoredAgentState = Omit<AgentState, "appliedSnapshot"> & { appliedSnapshot: unknown };

/** planAgents over stored agent states, reading each applied snapshot (SnapshotUnreadableError if one cannot be). */
export function planStoredAgents(snapshot: DeploymentSnapshot, agents: readonly StoredAgentState[], now: number): AgentPlan[] {
  return planAgents(
    snapshot,
    agents.map((a) => ({
      ...a,
      appliedSnapshot: a.appliedSnapshot ? readSnapshot(a.appliedSnapshot, `version ${a.appliedVersion}`) : null,
    })),
    now,
  );
}

export interface DeployedVersion {
  version: number;
  createdAt: Date;
  snapshot: DeploymentSnapshot;
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

/** What deploying `snapshot` would change against the deployed version (null: none yet), before anyone presses Deploy. */
export function planDeployment(snapshot: DeploymentSnapshot, deployed: DeployedVersion | null, agents: AgentPlan[]): DeployPlan {
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

export interface DeploymentContents {
  configHash: string;
  /** The agents it is sent to: those whose last deployed rendering differs from this one. */
  targets: { agentId: string; name: string; renderedHash: string }[];
  /** What the worker evaluates from this version on. */
  evaluated: EvaluatedItemSpec[];
}

/** What a deployment of `snapshot` stores: its hash, its targets among the agents, and the items the worker evaluates. */
export function deploymentContents(snapshot: DeploymentSnapshot, agents: readonly AgentPlan[]): DeploymentContents {
  return {
    configHash: snapshotHash(snapshot),
    targets: agents.filter((a) => a.affected).map((a) => ({ agentId: a.agentId, name: a.name, renderedHash: a.renderedHash })),
    evaluated: evaluatedItems(snapshot),
  };
}

/** A rollback is a new deployment of an earlier version's snapshot; its message says which. */
export function rollbackMessage(version: number): string {
  return `roll back to version ${version}`;
}

/** Longest wait before a failed configuration is offered to its agent again. */
export const MAX_CONFIG_RETRY_DELAY_MS = 10 * 60_000;

/** Wait before a configuration that failed on its agent is offered again: 5 s doubling per attempt, at most 10 min. */
export function configRetryDelayMs(attempts: number): number {
  return Math.min(MAX_CONFIG_RETRY_DELAY_MS, 5000 * 2 ** Math.max(0, attempts - 1));
}
