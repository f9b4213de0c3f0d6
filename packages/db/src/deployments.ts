import { removedItemReason } from "@tidemark/alerts";
import {
  configRetryDelayMs,
  type EvaluatedItemSpec,
  type ItemAlerting,
  isDefaultAlerting,
  type TargetFacts,
  type TargetStatus,
} from "@tidemark/config-render";
import type { Configuration } from "@tidemark/model";
import type { AgentStatus } from "@tidemark/protocol";
import type pg from "pg";
import { type Audited, agentActor, recordAuditedSql } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { policyFromRow, policyInclude } from "./policy-rows.ts";
import { retireSeries } from "./retired-series.ts";
import { inSqlTransaction } from "./sql-transaction.ts";
import { analyzeAfterBulkWrite } from "./statistics.ts";

/**
 * Deployments: immutable, versioned snapshots of an organisation's configuration, and their
 * delivery to each affected agent (pending → delivered when the agent fetched it → applied or
 * failed from the agent's report). Rendering the per-agent configs is @tidemark/config-render's job.
 */

export interface DeploymentSource {
  configuration: Configuration;
  assignments: { host: string; service: string; agentId: string }[];
  /** Items whose alert settings are not the defaults. */
  alerting: ItemAlerting[];
}

/**
 * Hosts are read a page at a time (keyset on the name): Prisma reads each level of the includes
 * with one parameter per parent id, and 30 000 hosts' services and items pass PostgreSQL's 65 535.
 */
const HOSTS_PER_READ = 2000;

function readHostPage(db: Database, organizationId: string, after: string | null) {
  return prismaOf(db).host.findMany({
    where: { organizationId, ...(after === null ? {} : { name: { gt: after } }) },
    orderBy: { name: "asc" },
    take: HOSTS_PER_READ,
    include: {
      services: {
        orderBy: { name: "asc" },
        include: { items: { orderBy: { name: "asc" }, include: { policy: { include: policyInclude } } } },
      },
    },
  });
}

/** The organisation's configuration as it is now (the draft), with which agent runs which service. */
export async function readDeploymentSource(db: Database, organizationId: string): Promise<DeploymentSource> {
  const hosts: Awaited<ReturnType<typeof readHostPage>> = [];
  for (let after: string | null = null; ; ) {
    const page = await readHostPage(db, organizationId, after);
    hosts.push(...page);
    if (page.length < HOSTS_PER_READ) break;
    after = page.at(-1)!.name;
  }
  const assignments: DeploymentSource["assignments"] = [];
  const alerting: ItemAlerting[] = [];
  const configuration: Configuration = {
    hosts: hosts.map((h) => ({
      name: h.name,
      alias: h.alias,
      description: h.description,
      services: h.services.map((s) => {
        if (s.agentId) assignments.push({ host: h.name, service: s.name, agentId: s.agentId });
        return {
          name: s.name,
          description: s.description,
          schedules: s.schedules,
          url: s.url,
          sendServiceData: s.sendServiceData,
          items: s.items.map((i) => {
            const settings = {
              host: h.name,
              service: s.name,
              item: i.name,
              recoveryMarginPercent: i.alertRecoveryMargin,
              minimumDurationSeconds: i.alertMinDurationSeconds,
              stateSource: i.stateSource as ItemAlerting["stateSource"],
              staleAfterIntervals: i.staleAfterIntervals,
            };
            if (!isDefaultAlerting(settings)) alerting.push(settings);
            return {
              name: i.name,
              description: i.description,
              execStatement: i.execStatement,
              thresholdClass: i.thresholdClass,
              serviceItemClass: i.serviceItemClass,
              cacheMaxCount: i.cacheMaxCount,
              policy: i.policy ? policyFromRow(i.policy) : null,
            };
          }),
        };
      }),
    })),
  };
  return { configuration, assignments, alerting };
}

/** Effective delivery status: a pending, delivered or failed target is superseded once its agent applied a later version. */
const EFFECTIVE_STATUS = `CASE WHEN t.status IN ('pending', 'delivered', 'failed') AND a.applied_version > d.version THEN 'superseded' ELSE t.status::text END`;

/** Agents (not revoked) with what they applied and the last rendering deployed to them. */
export interface AgentDeployState {
  agentId: string;
  name: string;
  lastSeenAt: Date | null;
  appliedVersion: number | null;
  appliedHash: string | null;
  /** Snapshot of the deployment the agent applied (null when it applied none). */
  appliedSnapshot: unknown;
  /** Rendered hash of the newest deployment that targeted the agent. */
  latestTargetHash: string | null;
}

export async function agentDeployStates(db: Database, organizationId: string): Promise<AgentDeployState[]> {
  const { rows } = await poolOf(db).query<{
    id: string;
    name: string;
    last_seen_at: Date | null;
    applied_version: number | null;
    applied_hash: string | null;
    applied_snapshot: unknown;
    latest_target_hash: string | null;
  }>(
    `SELECT a.id, a.name, a.last_seen_at, a.applied_version, a.applied_hash,
            (SELECT d.snapshot FROM deployments d WHERE d.organization_id = a.organization_id AND d.version = a.applied_version) AS applied_snapshot,
            (SELECT t.rendered_hash FROM deployment_targets t JOIN deployments d ON d.id = t.deployment_id
              WHERE t.agent_id = a.id ORDER BY d.version DESC LIMIT 1) AS latest_target_hash
     FROM agents a WHERE a.organization_id = $1 AND a.revoked_at IS NULL ORDER BY a.name`,
    [organizationId],
  );
  return rows.map((r) => ({
    agentId: r.id,
    name: r.name,
    lastSeenAt: r.last_seen_at,
    appliedVersion: r.applied_version,
    appliedHash: r.applied_hash,
    appliedSnapshot: r.applied_snapshot,
    latestTargetHash: r.latest_target_hash,
  }));
}

export interface NewDeployment {
  organizationId: string;
  createdBy: string | null;
  snapshot: unknown;
  configHash: string;
  message: string;
  rollbackOf: number | null;
  targets: { agentId: string; renderedHash: string }[];
  /** What the worker evaluates from this version on. */
  evaluated: EvaluatedItemSpec[];
}

/**
 * Stores a deployment as the organisation's next version, with its targets, and makes its items
 * what the worker evaluates — in one transaction, so the worker never sees half a version.
 */
export async function createDeployment(
  db: Database,
  input: NewDeployment,
  audit?: Audited<{ id: string; version: number }>,
): Promise<{ id: string; version: number }> {
  for (let attempt = 0; ; attempt++) {
    const client = await poolOf(db).connect();
    let committed: { id: string; version: number } | null = null;
    let added = 0;
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ id: string; version: number }>(
        `INSERT INTO deployments (organization_id, version, config_hash, snapshot, message, created_by, rollback_of)
         SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6 FROM deployments WHERE organization_id = $1
         RETURNING id, version`,
        [input.organizationId, input.configHash, JSON.stringify(input.snapshot), input.message, input.createdBy, input.rollbackOf],
      );
      const created = rows[0];
      if (!created) throw new Error("the deployment was not stored");
      if (input.targets.length) {
        await client.query(
          `INSERT INTO deployment_targets (organization_id, deployment_id, agent_id, rendered_hash)
           SELECT $4, $1, t.agent_id, t.rendered_hash FROM unnest($2::uuid[], $3::text[]) AS t(agent_id, rendered_hash)
           JOIN agents a ON a.id = t.agent_id AND a.organization_id = $4`,
          [created.id, input.targets.map((t) => t.agentId), input.targets.map((t) => t.renderedHash), input.organizationId],
        );
      }
      added = await replaceDeployedItems(client, input.organizationId, created.version, input.evaluated);
      await recordAuditedSql(client, audit, created);
      await client.query("COMMIT");
      committed = created;
    } catch (error) {
      await client.query("ROLLBACK");
      // Two deploys at once both picked max + 1: the unique (organization, version) refused one; take the next.
      const uniqueViolation = (error as { code?: string }).code === "23505";
      if (!uniqueViolation || attempt >= 4) throw error;
    } finally {
      client.release();
    }
    if (committed) {
      // By what the organisation grew: a redeploy of the same items rewrites them, adds nothing.
      await analyzeAfterBulkWrite(db, added, ["deployed_items"]);
      return committed;
    }
  }
}

/** Returns how many more items the organisation has deployed than before (negative: fewer). */
async function replaceDeployedItems(
  client: pg.ClientBase,
  organizationId: string,
  version: number,
  items: EvaluatedItemSpec[],
): Promise<number> {
  const removed = await client.query<{ series_key: string }>(`DELETE FROM deployed_items WHERE organization_id = $1 RETURNING series_key`, [
    organizationId,
  ]);
  const kept = new Set(items.map((i) => i.seriesKey));
  await retireSeries(
    client,
    organizationId,
    removed.rows.map((r) => r.series_key).filter((key) => !kept.has(key)),
    removedItemReason(version),
  );
  const added = items.length - removed.rows.length;
  if (items.length === 0) return added;
  await client.query(
    `INSERT INTO deployed_items (organization_id, series_key, deployment_version, host, service, item, policy, interval_ms,
                                 alert_recovery_margin, alert_min_duration_seconds, service_url, schedules, exec_statement,
                                 state_source, stale_after_intervals)
     SELECT $1, i.series_key, $2, i.host, i.service, i.item, i.policy, i.interval_ms, i.margin, i.duration, i.url,
            ARRAY(SELECT jsonb_array_elements_text(i.schedules)), i.exec, i.state_source, i.stale_after
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::bigint[], $9::float8[], $10::int[], $11::text[], $12::jsonb[], $13::text[],
                 $14::text[], $15::int[])
       AS i(series_key, host, service, item, policy, interval_ms, margin, duration, url, schedules, exec, state_source, stale_after)`,
    [
      organizationId,
      version,
      items.map((i) => i.seriesKey),
      items.map((i) => i.host),
      items.map((i) => i.service),
      items.map((i) => i.item),
      items.map((i) => (i.policy === null ? null : JSON.stringify(i.policy))),
      items.map((i) => i.intervalMs),
      items.map((i) => i.recoveryMarginPercent),
      items.map((i) => i.minimumDurationSeconds),
      items.map((i) => i.url),
      // A text[][] must be rectangular: each item's schedules travel as one JSON array.
      items.map((i) => JSON.stringify(i.schedules)),
      items.map((i) => i.execStatement),
      items.map((i) => i.stateSource),
      items.map((i) => i.staleAfterIntervals),
    ],
  );
  return added;
}

export async function deploymentSnapshot(
  db: Database,
  organizationId: string,
  version: number,
): Promise<{ id: string; version: number; snapshot: unknown } | null> {
  const { rows } = await poolOf(db).query<{ id: string; version: number; snapshot: unknown }>(
    `SELECT id, version, snapshot FROM deployments WHERE organization_id = $1 AND version = $2`,
    [organizationId, version],
  );
  return rows[0] ?? null;
}

export interface DeploymentSummary {
  id: string;
  version: number;
  configHash: string;
  message: string;
  createdAt: Date;
  createdBy: string | null;
  rollbackOf: number | null;
  /** Every agent the version was sent to, with what is known of its delivery. */
  targets: TargetFacts[];
}

export async function listDeployments(db: Database, organizationId: string, limit = 50): Promise<DeploymentSummary[]> {
  const { rows } = await poolOf(db).query<{
    id: string;
    version: number;
    config_hash: string;
    message: string;
    created_at: Date;
    created_by: string | null;
    rollback_of: number | null;
    targets: {
      status: TargetStatus;
      last_error: string | null;
      updated_at: string;
      next_attempt_at: string;
      last_seen_at: string | null;
    }[];
  }>(
    `SELECT d.id, d.version, d.config_hash, d.message, d.created_at, u.name AS created_by, d.rollback_of,
            coalesce((SELECT json_agg(json_build_object('status', ${EFFECTIVE_STATUS}, 'last_error', t.last_error, 'updated_at', t.updated_at,
                                                        'next_attempt_at', t.next_attempt_at, 'last_seen_at', a.last_seen_at))
                      FROM deployment_targets t JOIN agents a ON a.id = t.agent_id WHERE t.deployment_id = d.id), '[]') AS targets
     FROM deployments d LEFT JOIN users u ON u.id = d.created_by
     WHERE d.organization_id = $1 ORDER BY d.version DESC LIMIT $2`,
    [organizationId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    configHash: r.config_hash,
    message: r.message,
    createdAt: r.created_at,
    createdBy: r.created_by,
    rollbackOf: r.rollback_of,
    targets: r.targets.map((t) => ({
      status: t.status,
      lastError: t.last_error,
      updatedAt: new Date(t.updated_at),
      nextAttemptAt: new Date(t.next_attempt_at),
      lastSeenAt: t.last_seen_at === null ? null : new Date(t.last_seen_at),
      deployedAt: r.created_at,
    })),
  }));
}

export interface TargetProgress extends TargetFacts {
  agentId: string;
  agent: string;
  attempts: number;
}

export async function deploymentProgress(db: Database, organizationId: string, version: number): Promise<TargetProgress[] | null> {
  const deployment = await poolOf(db).query(`SELECT 1 FROM deployments WHERE organization_id = $1 AND version = $2`, [
    organizationId,
    version,
  ]);
  if (deployment.rowCount === 0) return null;
  const { rows } = await poolOf(db).query<{
    agent_id: string;
    agent: string;
    status: TargetStatus;
    attempts: number;
    last_error: string | null;
    updated_at: Date;
    next_attempt_at: Date;
    last_seen_at: Date | null;
    deployed_at: Date;
  }>(
    `SELECT t.agent_id, a.name AS agent, ${EFFECTIVE_STATUS} AS status, t.attempts, t.last_error, t.updated_at, t.next_attempt_at,
            a.last_seen_at, d.created_at AS deployed_at
     FROM deployments d JOIN deployment_targets t ON t.deployment_id = d.id JOIN agents a ON a.id = t.agent_id
     WHERE d.organization_id = $1 AND d.version = $2 ORDER BY a.name`,
    [organizationId, version],
  );
  return rows.map((r) => ({
    agentId: r.agent_id,
    agent: r.agent,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    updatedAt: r.updated_at,
    nextAttemptAt: r.next_attempt_at,
    lastSeenAt: r.last_seen_at,
    deployedAt: r.deployed_at,
  }));
}

export interface PendingConfig {
  deploymentId: string;
  version: number;
  snapshot: unknown;
  renderedHash: string;
}

/**
 * The newest deployment targeting the agent that is later than `afterVersion`, skipping a failed
 * one until its retry time. An agent starting afresh (after 0) gets what it should run now.
 */
export async function nextConfigForAgent(db: Database, agentId: string, afterVersion: number): Promise<PendingConfig | null> {
  const { rows } = await poolOf(db).query<{ deployment_id: string; version: number; snapshot: unknown; rendered_hash: string }>(
    `SELECT t.deployment_id, d.version, d.snapshot, t.rendered_hash
     FROM deployment_targets t JOIN deployments d ON d.id = t.deployment_id
     WHERE t.agent_id = $1 AND d.version > $2 AND NOT (t.status = 'failed' AND t.next_attempt_at > now())
     ORDER BY d.version DESC LIMIT 1`,
    [agentId, afterVersion],
  );
  const r = rows[0];
  return r ? { deploymentId: r.deployment_id, version: r.version, snapshot: r.snapshot, renderedHash: r.rendered_hash } : null;
}

/** The agent fetched the deployment: pending (or failed, being retried) becomes delivered. */
export async function markDelivered(db: Database, deploymentId: string, agentId: string): Promise<void> {
  await poolOf(db).query(
    `UPDATE deployment_targets SET status = 'delivered', attempts = attempts + 1, updated_at = now()
     WHERE deployment_id = $1 AND agent_id = $2 AND status IN ('pending', 'failed')`,
    [deploymentId, agentId],
  );
}

/**
 * The agent's report on a version: applied (its applied version moves forward) or failed
 * (retried with backoff). False when no deployment of that version targeted this agent. A report
 * that changes the target's state is recorded in the audit log as the agent's doing (same transaction).
 */
export async function recordAgentStatus(db: Database, agentId: string, report: AgentStatus): Promise<boolean> {
  return inSqlTransaction(db, async (client) => {
    const { rows } = await client.query<{ deployment_id: string; status: string; name: string; organization_id: string }>(
      `SELECT t.deployment_id, t.status, a.name, a.organization_id
       FROM deployment_targets t JOIN deployments d ON d.id = t.deployment_id JOIN agents a ON a.id = t.agent_id
       WHERE t.agent_id = $1 AND d.version = $2 AND d.organization_id = a.organization_id FOR UPDATE OF t`,
      [agentId, report.version],
    );
    const target = rows[0];
    if (!target) return false;
    const error = report.status === "failed" ? (report.error ?? "failed without a reason") : null;
    const { rows: updated } = await client.query<{ attempts: number }>(
      `UPDATE deployment_targets SET status = $3::delivery_status, last_error = $4, updated_at = now()
       WHERE deployment_id = $1 AND agent_id = $2 RETURNING attempts`,
      [target.deployment_id, agentId, report.status, error],
    );
    if (report.status === "applied") {
      await client.query(`UPDATE agents SET applied_version = $2, applied_hash = $3 WHERE id = $1`, [agentId, report.version, report.hash]);
    } else {
      await client.query(
        `UPDATE deployment_targets SET next_attempt_at = now() + make_interval(secs => $3) WHERE deployment_id = $1 AND agent_id = $2`,
        [target.deployment_id, agentId, configRetryDelayMs(updated[0]?.attempts ?? 1) / 1000],
      );
    }
    if (target.status !== report.status) {
      await recordAuditedSql(
        client,
        {
          actor: agentActor(target.organization_id, target.name),
          describe: () => ({
            action: `deployment.${report.status}`,
            targetType: "deployment",
            targetId: target.deployment_id,
            before: { status: target.status },
            after: { version: report.version, status: report.status, ...(error ? { error } : {}) },
          }),
        },
        null,
      );
    }
    return true;
  });
}
