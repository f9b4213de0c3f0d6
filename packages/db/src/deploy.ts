import {
  type DeployedVersion,
  type DeploymentSnapshot,
  deploymentContents,
  draftSnapshot,
  planStoredAgents,
  readSnapshot,
} from "@tidemark/config-render";
import type { AuditChange, Audited } from "./audit.ts";
import { type Database, poolOf } from "./database.ts";
import { agentDeployStates, createDeployment, readDeploymentSource } from "./deployments.ts";

/**
 * Deploying: freezing the draft (or an earlier version, for a rollback) into the organisation's
 * next version. The decisions — whether the draft may be deployed, what each agent runs, which
 * agents a version goes to — are @tidemark/config-render's; this module loads what they need and
 * stores the result. Production, seeds and tests all deploy through `deploySnapshot`.
 */

/** The draft as a snapshot; DraftInvalidError when the model does not accept it. */
export async function readDraftSnapshot(db: Database, organizationId: string): Promise<DeploymentSnapshot> {
  return draftSnapshot(await readDeploymentSource(db, organizationId));
}

/** The organisation's latest deployment: what runs (null: it never deployed). */
export async function latestDeployment(db: Database, organizationId: string): Promise<DeployedVersion | null> {
  const { rows } = await poolOf(db).query<{ version: number; created_at: Date; snapshot: unknown }>(
    `SELECT version, created_at, snapshot FROM deployments WHERE organization_id = $1 ORDER BY version DESC LIMIT 1`,
    [organizationId],
  );
  const row = rows[0];
  return row ? { version: row.version, createdAt: row.created_at, snapshot: readSnapshot(row.snapshot, `version ${row.version}`) } : null;
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
  const agents = planStoredAgents(input.snapshot, await agentDeployStates(db, input.organizationId), Date.now());
  const { configHash, targets, evaluated } = deploymentContents(input.snapshot, agents);
  const names = targets.map((t) => t.name);
  const created = await createDeployment(
    db,
    {
      organizationId: input.organizationId,
      createdBy: input.createdBy,
      snapshot: input.snapshot,
      configHash,
      message: input.message,
      rollbackOf: input.rollbackOf,
      targets,
      evaluated,
    },
    audit && { actor: audit.actor, describe: (stored) => audit.describe({ ...stored, configHash, agents: names }) },
  );
  return { ...created, configHash, agents: names };
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
