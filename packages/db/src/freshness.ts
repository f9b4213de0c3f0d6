import { agentHeartbeatItem, agentHeartbeatKey } from "@tidemark/alerts";
import { type Database, poolOf } from "./database.ts";
import type { EvaluatedItem } from "./evaluation.ts";
import { ensureSeries, ensureSeriesWithShards } from "./metrics.ts";

/** The SQL behind freshness: what the worker needs to tell stale items and silent agents, and the results it makes up for them. */

export interface FreshnessItem {
  organizationId: string;
  timeZone: string;
  seriesId: number;
  key: string;
  lastTs: number;
  schedules: string[];
  staleAfterIntervals: number;
  /** The agent that runs the item's service; null for calculations (the worker runs them). */
  agentId: string | null;
}

/**
 * Every deployed item that has had data and runs somewhere (a calculation, or a service assigned
 * to an agent), with its schedules, agent and newest point; all organisations, as the worker
 * serves them all. An item of a service that runs nowhere expects no data (it is flagged as
 * running nowhere instead). The newest point is read here, when the watch needs it, rather than
 * kept on the series by every ingested batch (one UPDATE per series per batch, issue 22).
 */
export async function loadFreshnessItems(db: Database): Promise<FreshnessItem[]> {
  const { rows } = await poolOf(db).query<{
    organization_id: string;
    time_zone: string;
    series_id: string;
    key: string;
    last_ts: Date;
    schedules: string[] | null;
    stale_after_intervals: number;
    agent_id: string | null;
  }>(
    // The items, schedules and staleness setting of the deployed version (what agents and
    // calculations run, what the evaluator reads); the agent is the draft's.
    `SELECT d.organization_id, o.time_zone, se.id AS series_id, se.key, p.ts AS last_ts, d.schedules, d.stale_after_intervals,
            CASE WHEN d.service_url LIKE 'bischeck://%' THEN NULL ELSE s.agent_id END AS agent_id
     FROM deployed_items d
     JOIN organizations o ON o.id = d.organization_id
     JOIN series se ON se.organization_id = d.organization_id AND se.key = d.series_key
     CROSS JOIN LATERAL (SELECT mp.ts FROM metric_points mp WHERE mp.series_id = se.id ORDER BY mp.ts DESC LIMIT 1) p
     LEFT JOIN service_items i ON i.organization_id = d.organization_id AND i.series_key = d.series_key
     LEFT JOIN services s ON s.id = i.service_id
     WHERE d.service_url LIKE 'bischeck://%' OR s.agent_id IS NOT NULL`,
  );
  return rows.map((r) => ({
    organizationId: r.organization_id,
    timeZone: r.time_zone,
    seriesId: Number(r.series_id),
    key: r.key,
    lastTs: r.last_ts.getTime(),
    schedules: r.schedules ?? [],
    staleAfterIntervals: r.stale_after_intervals,
    agentId: r.agent_id,
  }));
}

/** The newest point's time of each of the series that has one (epoch ms), one index probe each. */
export async function loadLastPointTimes(db: Database, seriesIds: readonly number[]): Promise<Map<number, number>> {
  if (seriesIds.length === 0) return new Map();
  const { rows } = await poolOf(db).query<{ series_id: string; ts: Date }>(
    `SELECT ids.id AS series_id, p.ts FROM unnest($1::bigint[]) AS ids(id)
     CROSS JOIN LATERAL (SELECT mp.ts FROM metric_points mp WHERE mp.series_id = ids.id ORDER BY mp.ts DESC LIMIT 1) p`,
    [seriesIds],
  );
  return new Map(rows.map((r) => [Number(r.series_id), r.ts.getTime()]));
}

export interface FreshnessAgent {
  id: string;
  organizationId: string;
  name: string;
  lastSeenAt: number | null;
  /** The series the agent's own alert is raised on, and its current state (null: never evaluated). */
  heartbeatSeriesId: number;
  heartbeatState: string | null;
  heartbeatTs: number | null;
  /** false: the agent runs no service, and is listed only because its heartbeat is not OK. */
  runsServices: boolean;
}

/**
 * The agents the watch looks at: those that run at least one service and are not revoked, with
 * their heartbeat series (created when missing), and those that run none whose heartbeat is not
 * OK (an agent whose services all moved away while it was silent: its alert must close).
 * `heartbeatSeries` (organisation id and heartbeat key → series id) is the caller's memory of the
 * series already ensured or found, filled in here: a series, once created, keeps its id.
 */
export async function loadFreshnessAgents(db: Database, heartbeatSeries: Map<string, number> = new Map()): Promise<FreshnessAgent[]> {
  const { rows: all } = await poolOf(db).query<{
    id: string;
    organization_id: string;
    name: string;
    last_seen_at: Date | null;
    runs_services: boolean;
  }>(
    `SELECT a.id, a.organization_id, a.name, a.last_seen_at, EXISTS (SELECT 1 FROM services s WHERE s.agent_id = a.id) AS runs_services
     FROM agents a WHERE a.revoked_at IS NULL`,
  );
  const seriesMemoryKey = (organizationId: string, key: string) => `${organizationId}\n${key}`;
  const memoryKey = (organizationId: string, name: string) => seriesMemoryKey(organizationId, agentHeartbeatKey(name));
  const missing = new Map<string, string[]>();
  for (const r of all) {
    if (!r.runs_services || heartbeatSeries.has(memoryKey(r.organization_id, r.name))) continue;
    const keys = missing.get(r.organization_id);
    if (keys) keys.push(agentHeartbeatKey(r.name));
    else missing.set(r.organization_id, [agentHeartbeatKey(r.name)]);
  }
  for (const [organizationId, keys] of missing) {
    for (const [key, id] of await ensureSeries(db, organizationId, keys)) heartbeatSeries.set(seriesMemoryKey(organizationId, key), id);
  }
  // An agent that runs nothing matters only when its heartbeat is not OK, so its series already exists: looked up, not created.
  const idle = all.filter((r) => !r.runs_services && !heartbeatSeries.has(memoryKey(r.organization_id, r.name)));
  if (idle.length > 0) {
    const found = await poolOf(db).query<{ organization_id: string; key: string; id: string }>(
      `SELECT s.organization_id, s.key, s.id FROM unnest($1::uuid[], $2::text[]) AS q(organization_id, key)
       JOIN series s ON s.organization_id = q.organization_id AND s.key = q.key`,
      [idle.map((r) => r.organization_id), idle.map((r) => agentHeartbeatKey(r.name))],
    );
    for (const f of found.rows) heartbeatSeries.set(seriesMemoryKey(f.organization_id, f.key), Number(f.id));
  }
  const rows = all.filter((r) => heartbeatSeries.has(memoryKey(r.organization_id, r.name)));
  const seriesIdOf = (r: (typeof rows)[number]) => heartbeatSeries.get(memoryKey(r.organization_id, r.name))!;
  const states = await poolOf(db).query<{ series_id: string; state: string; ts: Date }>(
    `SELECT st.series_id, st.state, st.ts FROM unnest($1::uuid[], $2::bigint[]) AS q(organization_id, series_id)
     JOIN item_states st ON st.organization_id = q.organization_id AND st.series_id = q.series_id`,
    [rows.map((r) => r.organization_id), rows.map(seriesIdOf)],
  );
  const stateOf = new Map(states.rows.map((s) => [Number(s.series_id), s]));
  return rows.flatMap((a) => {
    const seriesId = seriesIdOf(a);
    const state = stateOf.get(seriesId);
    if (!a.runs_services && (state === undefined || state.state === "OK")) return [];
    return [
      {
        id: a.id,
        organizationId: a.organization_id,
        name: a.name,
        lastSeenAt: a.last_seen_at?.getTime() ?? null,
        heartbeatSeriesId: seriesId,
        heartbeatState: state?.state ?? null,
        heartbeatTs: state?.ts.getTime() ?? null,
        runsServices: a.runs_services,
      },
    ];
  });
}

/** The organisation's agents as items the evaluator knows (what such an item is: @tidemark/alerts' agentHeartbeatItem). */
export async function loadAgentHeartbeatItems(db: Database, organizationId: string): Promise<EvaluatedItem[]> {
  const { rows } = await poolOf(db).query<{ name: string }>(`SELECT name FROM agents WHERE organization_id = $1`, [organizationId]);
  if (rows.length === 0) return [];
  const series = await ensureSeriesWithShards(
    db,
    organizationId,
    rows.map((r) => agentHeartbeatKey(r.name)),
  );
  return rows.map((r) => {
    const item = agentHeartbeatItem(r.name);
    const { id, shard } = series.get(item.seriesKey)!;
    return { ...item, seriesId: id, shard, itemId: "" };
  });
}

export interface MadeUpResult {
  organizationId: string;
  seriesId: number;
  ts: number;
  status: number;
  output: string;
}

/** Queues results the worker made up (stale items, silent agents) for evaluation, like ingested ones but not stored as points. */
export async function queueMadeUpResults(db: Database, results: readonly MadeUpResult[]): Promise<void> {
  if (results.length === 0) return;
  await poolOf(db).query(
    `INSERT INTO evaluation_queue (organization_id, host_shard, series_ids, timestamps_ms, "values", statuses, outputs)
     SELECT r.organization_id, s.shard, array_agg(r.series_id), array_agg(r.ms), array_agg(NULL::float8), array_agg(r.status), array_agg(r.output)
     FROM unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::int[], $5::text[]) AS r(organization_id, series_id, ms, status, output)
     JOIN series s ON s.organization_id = r.organization_id AND s.id = r.series_id
     GROUP BY r.organization_id, s.shard`,
    [
      results.map((r) => r.organizationId),
      results.map((r) => r.seriesId),
      // Whole milliseconds, as a Date kept them.
      results.map((r) => Math.trunc(r.ts)),
      results.map((r) => r.status),
      results.map((r) => r.output),
    ],
  );
}
