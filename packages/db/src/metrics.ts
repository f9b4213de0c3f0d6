import { type Database, poolOf } from "./database.ts";
import { analyzeAfterBulkWrite } from "./statistics.ts";

/** Raw SQL for the time series: the hot paths stay out of the ORM. */

export interface PointRow {
  seriesId: number;
  ts: Date;
  value: number | null;
}

/** Ids of the organisation's series with these keys, created when missing. */
export async function ensureSeries(db: Database, organizationId: string, keys: readonly string[]): Promise<Map<string, number>> {
  const series = await ensureSeriesWithShards(db, organizationId, keys);
  return new Map([...series].map(([key, { id }]) => [key, id]));
}

/** As ensureSeries, with each series' evaluation shard (series.shard, from its key's host). */
export async function ensureSeriesWithShards(
  db: Database,
  organizationId: string,
  keys: readonly string[],
): Promise<Map<string, { id: number; shard: number }>> {
  const unique = [...new Set(keys)];
  if (unique.length === 0) return new Map();
  const created = await poolOf(db).query(
    `INSERT INTO series (organization_id, key) SELECT $1, k FROM unnest($2::text[]) AS k ON CONFLICT DO NOTHING`,
    [organizationId, unique],
  );
  await analyzeAfterBulkWrite(db, created.rowCount ?? 0, ["series"]);
  const { rows } = await poolOf(db).query<{ id: number; key: string; shard: number }>(
    `SELECT id, key, shard FROM series WHERE organization_id = $1 AND key = ANY($2::text[])`,
    [organizationId, unique],
  );
  return new Map(rows.map((r) => [r.key, { id: r.id, shard: r.shard }]));
}

const INSERT_CHUNK = 5000;

/**
 * Inserts points, skipping any (series, ts) already stored, in chunks passed as three arrays
 * (one parameter per column keeps each statement small to parse whatever the chunk size), each
 * with its series' organisation.
 * Returns how many were new.
 */
export async function insertPoints(db: Database, points: readonly PointRow[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < points.length; i += INSERT_CHUNK) {
    const chunk = points.slice(i, i + INSERT_CHUNK);
    const result = await poolOf(db).query(
      `WITH inserted AS (
         INSERT INTO metric_points (organization_id, series_id, ts, value)
         SELECT s.organization_id, p.series_id, p.ts, p.value
         FROM unnest($1::bigint[], $2::timestamptz[], $3::float8[]) AS p(series_id, ts, value) JOIN series s ON s.id = p.series_id
         ON CONFLICT DO NOTHING RETURNING 1
       )
       SELECT count(*)::int AS n FROM inserted`,
      [chunk.map((p) => p.seriesId), chunk.map((p) => p.ts.toISOString()), chunk.map((p) => p.value)],
    );
    inserted += (result.rows[0] as { n: number }).n;
  }
  return inserted;
}

export interface SeriesWindowPoint {
  ts: number;
  avg: number | null;
  min: number | null;
  max: number | null;
}

/**
 * Points of one series over a window: raw below two days, the 5-minute aggregate below
 * twenty days, the 1-hour aggregate beyond. Min and max travel with the average so that
 * charts keep peaks visible after downsampling.
 */
export async function readSeriesWindow(
  db: Database,
  organizationId: string,
  seriesId: number,
  from: Date,
  to: Date,
): Promise<{ resolution: "raw" | "5m" | "1h"; points: SeriesWindowPoint[] }> {
  const span = to.getTime() - from.getTime();
  const day = 86_400_000;
  if (span <= 2 * day) {
    const { rows } = await poolOf(db).query<{ ts: Date; value: number | null }>(
      `SELECT p.ts, p.value FROM metric_points p
       WHERE p.organization_id = $1 AND p.series_id = $2 AND p.ts >= $3 AND p.ts < $4 ORDER BY p.ts`,
      [organizationId, seriesId, from, to],
    );
    return { resolution: "raw", points: rows.map((r) => ({ ts: r.ts.getTime(), avg: r.value, min: r.value, max: r.value })) };
  }
  const view = span <= 20 * day ? "metric_5m" : "metric_1h";
  const { rows } = await poolOf(db).query<{ bucket: Date; avg: number | null; min: number | null; max: number | null }>(
    `SELECT a.bucket, a.avg, a.min, a.max FROM ${view} a JOIN series s ON s.id = a.series_id
     WHERE s.organization_id = $1 AND a.series_id = $2 AND a.bucket >= $3 AND a.bucket < $4 ORDER BY a.bucket`,
    [organizationId, seriesId, from, to],
  );
  return {
    resolution: view === "metric_5m" ? "5m" : "1h",
    points: rows.map((r) => ({ ts: r.bucket.getTime(), avg: r.avg, min: r.min, max: r.max })),
  };
}

/**
 * PGlite runs no background workers, so continuous-aggregate policies never fire there: the
 * worker (and the seeder) refresh the aggregates themselves. A no-op on plain PostgreSQL, where
 * the aggregates are views.
 */
export async function refreshAggregates(db: Database, window?: { from: Date; to: Date }): Promise<void> {
  if (db.info.kind !== "timescaledb") return;
  for (const view of ["metric_5m", "metric_1h"]) {
    await poolOf(db).query(`CALL refresh_continuous_aggregate($1::regclass, $2::timestamptz, $3::timestamptz)`, [
      view,
      window?.from ?? null,
      window?.to ?? null,
    ]);
  }
}

/**
 * Retention where TimescaleDB's policies cannot run (the embedded server has no background
 * workers): drops the chunks of points older than 400 days and of state changes older than 800.
 */
export async function dropExpiredHistory(db: Database): Promise<void> {
  await poolOf(db).query(`SELECT drop_chunks('metric_points', older_than => INTERVAL '400 days')`);
  await poolOf(db).query(`SELECT drop_chunks('state_changes', older_than => INTERVAL '800 days')`);
}

/** The organisation's series `seriesId` (when it is one of its own) with the time of its newest point (null: none yet). */
export async function findSeries(db: Database, organizationId: string, seriesId: number): Promise<{ lastTs: Date | null } | null> {
  const { rows } = await poolOf(db).query<{ last_ts: Date | null }>(
    `SELECT (SELECT p.ts FROM metric_points p WHERE p.organization_id = s.organization_id AND p.series_id = s.id ORDER BY p.ts DESC LIMIT 1) AS last_ts
     FROM series s WHERE s.id = $1 AND s.organization_id = $2`,
    [seriesId, organizationId],
  );
  return rows[0] ? { lastTs: rows[0].last_ts } : null;
}
