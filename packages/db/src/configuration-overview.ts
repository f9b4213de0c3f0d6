import { type Database, poolOf } from "./database.ts";

/** What the overview and the dashboard's item list read of the configuration, within one organisation. */

export interface Overview {
  hosts: number;
  services: number;
  items: number;
  agents: number;
  openAlerts: number;
  states: Record<"OK" | "WARNING" | "CRITICAL" | "UNKNOWN", number>;
}

export async function configurationOverview(db: Database, organizationId: string): Promise<Overview> {
  // One statement, not six: the overview is polled by every open dashboard.
  const { rows } = await poolOf(db).query<Omit<Overview, "states"> & { states: Partial<Overview["states"]> | null }>({
    text: `SELECT (SELECT count(*)::int FROM hosts WHERE organization_id = $1) AS hosts,
                  (SELECT count(*)::int FROM services WHERE organization_id = $1) AS services,
                  (SELECT count(*)::int FROM service_items WHERE organization_id = $1) AS items,
                  (SELECT count(*)::int FROM agents WHERE organization_id = $1 AND revoked_at IS NULL) AS agents,
                  (SELECT count(*)::int FROM alerts WHERE organization_id = $1 AND closed_at IS NULL) AS "openAlerts",
                  (SELECT json_object_agg(state, n) FROM (
                     SELECT hard_state AS state, count(*)::int AS n FROM item_states WHERE organization_id = $1 GROUP BY hard_state
                   ) counted) AS states`,
    values: [organizationId],
  });
  const row = rows[0]!;
  return { ...row, states: { OK: 0, WARNING: 0, CRITICAL: 0, UNKNOWN: 0, ...row.states } };
}

export interface ItemListRow {
  id: string;
  host: string;
  service: string;
  item: string;
  seriesKey: string;
  url: string;
  schedules: string[];
  hasPolicy: boolean;
  seriesId: number | null;
  state: string | null;
  lastValue: number | null;
  /** When the last point was measured, and the plugin's exit code and output line with it. */
  lastTs: Date | null;
  lastStatus: number | null;
  lastOutput: string | null;
}

/**
 * How far back the list first looks for an item's last point. A constant bound (a parameter of
 * an unnamed statement, which PostgreSQL plans with its value) lets TimescaleDB leave every older
 * chunk out of the plan: without it the planner considers every chunk of metric_points on every
 * call (30–60 ms of planning over ~200 chunks on the embedded server, for 4–13 ms of execution).
 * Series silent for longer are looked up on their own (fillOlderLastPoints).
 */
const RECENT_POINT_MS = 24 * 60 * 60_000;

interface LastPointColumns {
  series_id: number | null;
  ts: Date | null;
  value: number | null;
  status: number | null;
  output: string | null;
}

/** The last point of each listed series that has none within RECENT_POINT_MS, in place. */
async function fillOlderLastPoints(db: Database, rows: LastPointColumns[]): Promise<void> {
  const silent = rows.filter((r) => r.series_id !== null && r.ts === null).map((r) => r.series_id as number);
  if (silent.length === 0) return;
  const { rows: older } = await poolOf(db).query<LastPointColumns & { series_id: number }>(
    `SELECT s.id AS series_id, last.ts, last.value, last.status, last.output
     FROM unnest($1::bigint[]) AS s(id)
     CROSS JOIN LATERAL (
       SELECT p.ts, p.value, p.status, p.output FROM metric_points p WHERE p.series_id = s.id ORDER BY p.ts DESC LIMIT 1
     ) last`,
    [silent],
  );
  const bySeries = new Map(older.map((r) => [Number(r.series_id), r]));
  for (const row of rows) {
    const found = row.series_id !== null && row.ts === null ? bySeries.get(Number(row.series_id)) : undefined;
    if (found) Object.assign(row, { ts: found.ts, value: found.value, status: found.status, output: found.output });
  }
}

/** Keyset-paginated item list (stays fast with 10 000s of items), filtered by a search text. */
export async function listItemsWithLastValues(
  db: Database,
  organizationId: string,
  opts: { search?: string; after?: string | null; limit: number },
): Promise<{ rows: ItemListRow[]; next: string | null }> {
  const pattern = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows } = await poolOf(db).query<{
    id: string;
    host: string;
    service: string;
    item: string;
    series_key: string;
    url: string;
    schedules: string[];
    has_policy: boolean;
    series_id: number | null;
    state: string | null;
    value: number | null;
    ts: Date | null;
    status: number | null;
    output: string | null;
  }>(
    `SELECT i.id, h.name AS host, s.name AS service, i.name AS item, i.series_key, s.url, s.schedules,
            i.policy_id IS NOT NULL AS has_policy, se.id AS series_id, st.hard_state AS state, last.value, last.ts, last.status, last.output
     FROM service_items i
     JOIN services s ON s.id = i.service_id
     JOIN hosts h ON h.id = s.host_id
     LEFT JOIN series se ON se.organization_id = i.organization_id AND se.key = i.series_key
     LEFT JOIN item_states st ON st.organization_id = se.organization_id AND st.series_id = se.id
     LEFT JOIN LATERAL (
       SELECT p.ts, p.value, p.status, p.output FROM metric_points p
       WHERE p.series_id = se.id AND p.ts >= $5::timestamptz ORDER BY p.ts DESC LIMIT 1
     ) last ON true
     WHERE i.organization_id = $1
       AND ($2::text IS NULL OR i.series_key ILIKE $2)
       AND ($3::text IS NULL OR i.series_key > $3)
     ORDER BY i.series_key
     LIMIT $4`,
    [organizationId, pattern, opts.after ?? null, opts.limit + 1, new Date(Date.now() - RECENT_POINT_MS)],
  );
  await fillOlderLastPoints(db, rows);
  const page = rows.slice(0, opts.limit).map((r) => ({
    id: r.id,
    host: r.host,
    service: r.service,
    item: r.item,
    seriesKey: r.series_key,
    url: r.url,
    schedules: r.schedules,
    hasPolicy: r.has_policy,
    seriesId: r.series_id,
    state: r.state,
    lastValue: r.value,
    lastTs: r.ts,
    lastStatus: r.status,
    lastOutput: r.output,
  }));
  return { rows: page, next: rows.length > opts.limit ? (page.at(-1)?.seriesKey ?? null) : null };
}
