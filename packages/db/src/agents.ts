import { isDeepStrictEqual } from "node:util";
import { agentHeartbeatKey, revokedAgentReason } from "@tidemark/alerts";
import { hashToken, issueToken } from "@tidemark/auth";
import { seriesKey } from "@tidemark/model";
import type pg from "pg";
import { type Audited, recordAuditedSql, systemActor } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { retireSeries } from "./retired-series.ts";
import { inSqlTransaction } from "./sql-transaction.ts";

/** Collector agents of an organisation: their tokens (hash only), liveness and what they run. */

export interface AgentView {
  id: string;
  name: string;
  tokenPrefix: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
  appliedVersion: number | null;
  appliedHash: string | null;
  services: number;
}

export async function listAgents(db: Database, organizationId: string): Promise<AgentView[]> {
  const { rows } = await poolOf(db).query<{
    id: string;
    name: string;
    token_prefix: string;
    created_at: Date;
    last_seen_at: Date | null;
    revoked_at: Date | null;
    applied_version: number | null;
    applied_hash: string | null;
    services: number;
  }>(
    `SELECT a.id, a.name, a.token_prefix, a.created_at, a.last_seen_at, a.revoked_at, a.applied_version, a.applied_hash,
            (SELECT count(*)::int FROM services s WHERE s.agent_id = a.id) AS services
     FROM agents a WHERE a.organization_id = $1 ORDER BY a.revoked_at IS NOT NULL, a.name`,
    [organizationId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    tokenPrefix: r.token_prefix,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    revokedAt: r.revoked_at,
    appliedVersion: r.applied_version,
    appliedHash: r.applied_hash,
    services: r.services,
  }));
}

export class AgentNameTakenError extends Error {
  constructor(name: string) {
    super(`an agent named "${name}" already exists in this organisation`);
  }
}

/** Creates an agent; the returned token secret is shown once and never stored. */
export async function createAgent(
  db: Database,
  organizationId: string,
  name: string,
  audit?: Audited<{ id: string; name: string; tokenPrefix: string }>,
): Promise<{ agent: AgentView; token: string }> {
  const token = issueToken("tm_agent");
  const id = await inSqlTransaction(db, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, name) DO NOTHING RETURNING id`,
      [organizationId, name, token.prefix, token.hash],
    );
    const created = rows[0]?.id;
    if (!created) throw new AgentNameTakenError(name);
    await recordAuditedSql(client, audit, { id: created, name, tokenPrefix: token.prefix });
    return created;
  });
  const agent = (await listAgents(db, organizationId)).find((a) => a.id === id);
  if (!agent) throw new Error(`agent ${id} vanished after it was created`);
  return { agent, token: token.secret };
}

/** Revokes an agent's token (it can no longer fetch configs nor ship results); false when not found. */
export async function revokeAgent(
  db: Database,
  organizationId: string,
  agentId: string,
  audit?: Audited<{ id: string; name: string }>,
): Promise<boolean> {
  return inSqlTransaction(db, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `UPDATE agents SET revoked_at = now() WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL RETURNING name`,
      [agentId, organizationId],
    );
    const revoked = rows[0];
    if (!revoked) return false;
    // Its heartbeat gets no more results: an alert open on it (the agent went silent) would stay open.
    await retireSeries(client, organizationId, [agentHeartbeatKey(revoked.name)], revokedAgentReason(revoked.name));
    await recordAuditedSql(client, audit, { id: agentId, name: revoked.name });
    return true;
  });
}

/**
 * Makes sure an agent with this name exists and accepts `secret` (a token kept outside the
 * database, e.g. in a 0600 file by `npm start`): only its hash is stored. A revoked agent stays
 * revoked: null then, and nothing is changed. Creating or re-keying it is recorded in the audit
 * log (same transaction) as the system, named `by`; finding it as it should be changes nothing.
 */
/** Whether the organisation has an agent of this name (revoked or not). */
export async function agentExists(db: Database, organizationId: string, name: string): Promise<boolean> {
  return (await prismaOf(db).agent.count({ where: { organizationId, name } })) > 0;
}

export async function provisionAgent(
  db: Database,
  organizationId: string,
  name: string,
  secret: string,
  by: string,
): Promise<string | null> {
  const prefix = secret.slice(0, "tm_agent".length + 7);
  const tokenHash = hashToken(secret);
  return inSqlTransaction(db, async (client) => {
    const { rows: found } = await client.query<{ id: string; token_hash: string; revoked: boolean }>(
      `SELECT id, token_hash, revoked_at IS NOT NULL AS revoked FROM agents WHERE organization_id = $1 AND name = $2 FOR UPDATE`,
      [organizationId, name],
    );
    const existing = found[0];
    if (existing?.revoked) return null;
    if (existing?.token_hash === tokenHash) return existing.id;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, name)
         DO UPDATE SET token_prefix = EXCLUDED.token_prefix, token_hash = EXCLUDED.token_hash WHERE agents.revoked_at IS NULL
       RETURNING id`,
      [organizationId, name, prefix, tokenHash],
    );
    const id = rows[0]?.id;
    if (!id) return null;
    await recordAuditedSql(
      client,
      {
        actor: systemActor(organizationId, by),
        describe: () => ({
          action: existing ? "agent.rekey" : "agent.create",
          targetType: "agent",
          targetId: id,
          after: { name, tokenPrefix: prefix },
        }),
      },
      id,
    );
    return id;
  });
}

export interface AgentCheckSpec {
  name: string;
  url: string;
  schedules: string[];
  items: { name: string; description: string; execStatement: string }[];
}

/** What of `host`'s services named `names` an agent-check run compares: their settings and items. */
async function agentChecksOf(client: Pick<pg.PoolClient, "query">, organizationId: string, host: string, names: string[]) {
  const { rows } = await client.query(
    `SELECT s.name, s.url, s.schedules, s.agent_id AS "agentId",
            coalesce(json_agg(json_build_object('name', i.name, 'execStatement', i.exec_statement) ORDER BY i.name)
                     FILTER (WHERE i.id IS NOT NULL), '[]') AS items
     FROM hosts h JOIN services s ON s.host_id = h.id LEFT JOIN service_items i ON i.service_id = s.id
     WHERE h.organization_id = $1 AND h.name = $2 AND s.name = ANY($3::text[])
     GROUP BY s.id ORDER BY s.name`,
    [organizationId, host, names],
  );
  return rows;
}

/**
 * Makes `host` exist with these services run by the agent, updating url, schedules and exec
 * statements of ones that already exist (a re-run on another port updates rather than duplicates).
 * The items get no threshold policy: they are measurements to look at, tuned later in the editor.
 * A run that changes something is audited as the system named `by`, in the same transaction; a
 * run that changes nothing (every `npm start` after the first on the same port) writes nothing.
 */
export async function ensureAgentChecks(
  db: Database,
  organizationId: string,
  agentId: string,
  host: string,
  services: AgentCheckSpec[],
  by: string,
): Promise<void> {
  const names = services.map((s) => s.name);
  await inSqlTransaction(db, async (client) => {
    const before = await agentChecksOf(client, organizationId, host, names);
    const { rows: hosts } = await client.query<{ id: string }>(
      `INSERT INTO hosts (organization_id, name, description) VALUES ($1, $2, 'this machine')
       ON CONFLICT (organization_id, name) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [organizationId, host],
    );
    const hostId = hosts[0]?.id;
    for (const service of services) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO services (organization_id, host_id, name, schedules, url, agent_id) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (host_id, name) DO UPDATE SET schedules = EXCLUDED.schedules, url = EXCLUDED.url, agent_id = EXCLUDED.agent_id,
           updated_at = CASE WHEN (services.schedules, services.url, services.agent_id) IS DISTINCT FROM (EXCLUDED.schedules, EXCLUDED.url, EXCLUDED.agent_id)
                        THEN now() ELSE services.updated_at END
         RETURNING id`,
        [organizationId, hostId, service.name, service.schedules, service.url, agentId],
      );
      for (const item of service.items) {
        await client.query(
          `INSERT INTO service_items (organization_id, service_id, name, description, exec_statement, series_key) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (service_id, name) DO UPDATE SET exec_statement = EXCLUDED.exec_statement, updated_at = now()
           WHERE service_items.exec_statement IS DISTINCT FROM EXCLUDED.exec_statement`,
          [organizationId, rows[0]?.id, item.name, item.description, item.execStatement, seriesKey(host, service.name, item.name)],
        );
      }
    }
    const after = await agentChecksOf(client, organizationId, host, names);
    await recordAuditedSql(
      client,
      {
        actor: systemActor(organizationId, by),
        describe: () =>
          isDeepStrictEqual(before, after)
            ? null
            : {
                action: "agent.checks",
                targetType: "agent",
                targetId: agentId,
                before: { host, services: before },
                after: { host, services: after },
              },
      },
      null,
    );
  });
}
