import type { Database } from "./database.ts";

/** The SQL behind bischeck:// calculations, which the worker runs on their schedules. */

export interface CalculationService {
  serviceId: string;
  organizationId: string;
  host: string;
  service: string;
  schedules: string[];
  items: { name: string; seriesKey: string; execStatement: string }[];
}

export async function loadCalculationServices(db: Database): Promise<CalculationService[]> {
  const { rows } = await db.pool.query<{
    id: string;
    organization_id: string;
    host: string;
    service: string;
    schedules: string[] | null;
    items: { name: string; seriesKey: string; execStatement: string }[];
  }>(
    `SELECT s.id, s.organization_id, h.name AS host, s.name AS service, s.schedules,
            coalesce(json_agg(json_build_object('name', i.name, 'seriesKey', i.series_key, 'execStatement', i.exec_statement)
                     ORDER BY i.name) FILTER (WHERE i.id IS NOT NULL), '[]') AS items
     FROM services s JOIN hosts h ON h.id = s.host_id LEFT JOIN service_items i ON i.service_id = s.id
     WHERE s.url LIKE 'bischeck://%'
     GROUP BY s.id, h.name`,
  );
  return rows.map((r) => ({
    serviceId: r.id,
    organizationId: r.organization_id,
    host: r.host,
    service: r.service,
    schedules: r.schedules ?? [],
    items: r.items,
  }));
}

export interface DueRun {
  serviceId: string;
  dueAt: Date;
}

/**
 * Claims due runs in one statement: the first worker to insert (service, due) runs it; a claim
 * whose worker died (lease lapsed, never finished) can be taken over. Returns the runs won.
 */
export async function claimCalculationRuns(db: Database, runs: DueRun[], leaseMs: number): Promise<DueRun[]> {
  if (runs.length === 0) return [];
  const { rows } = await db.pool.query<{ service_id: string; due_at: Date }>(
    `INSERT INTO calculation_runs (service_id, due_at, claimed_until)
     SELECT s, d, now() + make_interval(secs => $3::float8 / 1000) FROM unnest($1::uuid[], $2::timestamptz[]) AS r(s, d)
     ON CONFLICT (service_id, due_at) DO UPDATE SET claimed_until = excluded.claimed_until
       WHERE calculation_runs.finished_at IS NULL AND calculation_runs.claimed_until < now()
     RETURNING service_id, due_at`,
    [runs.map((r) => r.serviceId), runs.map((r) => r.dueAt.toISOString()), leaseMs],
  );
  return rows.map((r) => ({ serviceId: r.service_id, dueAt: r.due_at }));
}

export async function finishCalculationRuns(db: Database, runs: (DueRun & { error: string | null })[]): Promise<void> {
  if (runs.length === 0) return;
  await db.pool.query(
    `UPDATE calculation_runs c SET finished_at = now(), error = r.e
     FROM unnest($1::uuid[], $2::timestamptz[], $3::text[]) AS r(s, d, e)
     WHERE c.service_id = r.s AND c.due_at = r.d`,
    [runs.map((r) => r.serviceId), runs.map((r) => r.dueAt.toISOString()), runs.map((r) => r.error)],
  );
}

export async function pruneCalculationRuns(db: Database, olderThanMs: number): Promise<number> {
  const { rowCount } = await db.pool.query(
    `DELETE FROM calculation_runs WHERE finished_at IS NOT NULL AND due_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [olderThanMs],
  );
  return rowCount ?? 0;
}
