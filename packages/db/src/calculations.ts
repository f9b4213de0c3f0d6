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

/**
 * Claims one due run: the first worker to insert (service, due) runs it; a claim whose worker
 * died (lease lapsed, never finished) can be taken over.
 */
export async function claimCalculationRun(db: Database, serviceId: string, dueAt: Date, leaseMs: number): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    `INSERT INTO calculation_runs (service_id, due_at, claimed_until) VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000))
     ON CONFLICT (service_id, due_at) DO UPDATE SET claimed_until = excluded.claimed_until
       WHERE calculation_runs.finished_at IS NULL AND calculation_runs.claimed_until < now()
     RETURNING 1`,
    [serviceId, dueAt, leaseMs],
  );
  return rowCount === 1;
}

export async function finishCalculationRun(db: Database, serviceId: string, dueAt: Date, error: string | null): Promise<void> {
  await db.pool.query(`UPDATE calculation_runs SET finished_at = now(), error = $3 WHERE service_id = $1 AND due_at = $2`, [
    serviceId,
    dueAt,
    error,
  ]);
}

export async function pruneCalculationRuns(db: Database, olderThanMs: number): Promise<number> {
  const { rowCount } = await db.pool.query(
    `DELETE FROM calculation_runs WHERE finished_at IS NOT NULL AND due_at < now() - make_interval(secs => $1::float8 / 1000)`,
    [olderThanMs],
  );
  return rowCount ?? 0;
}
