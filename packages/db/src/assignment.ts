import { type AuditActor, recordAudited } from "./audit.ts";
import { type Database, poolOf, prismaOf } from "./database.ts";
import { ConfigNotFoundError, likePattern, RUNS_NOWHERE, SERVICE_SEARCH, type ServiceStep } from "./draft-configuration.ts";
import type { PrismaTransaction } from "./prisma.ts";

/**
 * Which agent runs which service. Agent-run services (shell, http(s), postgres) get an agent;
 * bischeck:// calculations always run on the server and are never given one. Assigning edits the
 * draft: the agents receive it with the next deployment.
 */

/** Which services an assignment reaches: chosen rows, every row matching a search, or every service of a host. */
export type AssignmentTarget = { serviceIds: string[] } | { search: string } | { hostId: string };

export interface AssignmentResult {
  /** Services now assigned as asked. */
  assigned: number;
  /** Calculations among the targets, left to the server. */
  calculations: number;
}

/** Names of the organisation's active agents among `agentIds`; an id that is not one is refused. */
export async function activeAgentNames(db: Database, organizationId: string, agentIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(agentIds)];
  const { rows } = await poolOf(db).query<{ id: string; name: string }>(
    `SELECT id, name FROM agents WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND revoked_at IS NULL`,
    [organizationId, ids],
  );
  if (rows.length !== ids.length) throw new ConfigNotFoundError("no such active agent in this organisation");
  return new Map(rows.map((r) => [r.id, r.name]));
}

async function activeAgentName(db: Database, organizationId: string, agentId: string): Promise<string> {
  const { rows } = await poolOf(db).query<{ name: string }>(
    `SELECT name FROM agents WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL`,
    [agentId, organizationId],
  );
  const name = rows[0]?.name;
  if (name === undefined) throw new ConfigNotFoundError("no such active agent in this organisation");
  return name;
}

function targetFilter(target: AssignmentTarget): { sql: string; param: unknown } {
  if ("serviceIds" in target) return { sql: `s.id = ANY($3::uuid[])`, param: target.serviceIds };
  if ("hostId" in target) return { sql: `s.host_id = $3::uuid`, param: target.hostId };
  return { sql: `($3::text IS NULL OR ${SERVICE_SEARCH("$3")})`, param: likePattern(target.search || undefined) };
}

/** A target naming a service or host outside the organisation is refused whole, never partly applied. */
async function checkTargetInOrganisation(db: Database, organizationId: string, target: AssignmentTarget): Promise<void> {
  if ("search" in target) return;
  const ids = "serviceIds" in target ? [...new Set(target.serviceIds)] : [target.hostId];
  const table = "serviceIds" in target ? "services" : "hosts";
  const { rows } = await poolOf(db).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
    [organizationId, ids],
  );
  if ((rows[0]?.n ?? 0) !== ids.length)
    throw new ConfigNotFoundError(`no such ${table === "hosts" ? "host" : "service"} in this organisation`);
}

/** Gives the targeted services to an agent (null: to none); calculations are left to (or given back to) the server. */
export async function assignServices(
  db: Database,
  actor: AuditActor,
  agentId: string | null,
  target: AssignmentTarget,
): Promise<AssignmentResult> {
  const agent = agentId === null ? null : await activeAgentName(db, actor.organizationId, agentId);
  await checkTargetInOrganisation(db, actor.organizationId, target);
  return prismaOf(db).$transaction((tx) => assignWithin(tx, actor, agentId, agent, target));
}

/**
 * The assignment of one service being created or edited, as a step of that change's own
 * transaction (see createService / updateService): both land, with their entries, or neither.
 * The agent is checked before the change starts.
 */
export async function assignmentStep(db: Database, actor: AuditActor, agentId: string | null): Promise<ServiceStep> {
  const agent = agentId === null ? null : await activeAgentName(db, actor.organizationId, agentId);
  return (tx, serviceId) => assignWithin(tx, actor, agentId, agent, { serviceIds: [serviceId] });
}

/** The assignment and its audit entry, inside the transaction `tx`. */
async function assignWithin(
  tx: PrismaTransaction,
  actor: AuditActor,
  agentId: string | null,
  agent: string | null,
  target: AssignmentTarget,
): Promise<AssignmentResult> {
  const filter = targetFilter(target);
  const rows = await tx.$queryRawUnsafe<AssignmentResult[]>(
    `WITH targets AS (
       SELECT s.id, s.url LIKE 'bischeck://%' AS calculation FROM services s JOIN hosts h ON h.id = s.host_id
       WHERE s.organization_id = $1::uuid AND ${filter.sql}
     ), updated AS (
       UPDATE services s SET agent_id = CASE WHEN t.calculation THEN NULL ELSE $2::uuid END, updated_at = now() FROM targets t
       WHERE s.id = t.id AND s.agent_id IS DISTINCT FROM (CASE WHEN t.calculation THEN NULL ELSE $2::uuid END) RETURNING s.id
     )
     SELECT (SELECT count(*)::int FROM targets WHERE NOT calculation) AS assigned, (SELECT count(*)::int FROM targets WHERE calculation) AS calculations`,
    actor.organizationId,
    agentId,
    filter.param,
  );
  const result = rows[0] ?? { assigned: 0, calculations: 0 };
  await recordAudited(
    tx,
    { actor, describe: () => ({ action: "service.assign", targetType: "agent", targetId: agentId, after: { agent, target, ...result } }) },
    result,
  );
  return result;
}

export interface AgentService {
  id: string;
  host: string;
  service: string;
  url: string;
  schedules: string[];
  items: number;
}

/** The services an agent is assigned in the draft (what it runs once deployed). */
export async function listAgentServices(db: Database, organizationId: string, agentId: string): Promise<AgentService[]> {
  const { rows } = await poolOf(db).query<AgentService>(
    `SELECT s.id, h.name AS host, s.name AS service, s.url, s.schedules,
            (SELECT count(*)::int FROM service_items i WHERE i.service_id = s.id) AS items
     FROM services s JOIN hosts h ON h.id = s.host_id
     WHERE s.organization_id = $1 AND s.agent_id = $2 ORDER BY h.name, s.name`,
    [organizationId, agentId],
  );
  return rows;
}

/** How many agent-run services of the organisation run nowhere (no active agent). */
export async function countServicesRunningNowhere(db: Database, organizationId: string): Promise<number> {
  const { rows } = await poolOf(db).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM services s WHERE s.organization_id = $1 AND ${RUNS_NOWHERE}`,
    [organizationId],
  );
  return rows[0]?.n ?? 0;
}
