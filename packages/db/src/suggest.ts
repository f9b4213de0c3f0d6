import { type Database, poolOf } from "./database.ts";

/**
 * The history a threshold suggestion is fitted on: the item's 5-minute and 1-hour aggregates over
 * the last `weeks` weeks, two indexed range reads. The fit itself is pure (@tidemark/suggest).
 */

const WEEK = 7 * 86_400_000;

export interface AggregateRow {
  ts: number;
  avg: number | null;
  min: number | null;
  max: number | null;
}

export interface SuggestionHistory {
  fiveMinute: AggregateRow[];
  hourly: AggregateRow[];
}

async function readAggregate(
  db: Database,
  view: "metric_5m" | "metric_1h",
  organizationId: string,
  seriesKey: string,
  from: Date,
  to: Date,
) {
  const { rows } = await poolOf(db).query<{ bucket: Date; avg: number | null; min: number | null; max: number | null }>(
    `SELECT a.bucket, a.avg, a.min, a.max FROM ${view} a JOIN series s ON s.id = a.series_id
     WHERE s.organization_id = $1 AND s.key = $2 AND a.bucket >= $3 AND a.bucket < $4 ORDER BY a.bucket`,
    [organizationId, seriesKey, from, to],
  );
  return rows.map((r) => ({ ts: r.bucket.getTime(), avg: r.avg, min: r.min, max: r.max }));
}

export async function loadSuggestionHistory(
  db: Database,
  organizationId: string,
  seriesKey: string,
  weeks: number,
  now = Date.now(),
): Promise<SuggestionHistory> {
  const from = new Date(now - weeks * WEEK);
  const to = new Date(now);
  const fiveMinute = await readAggregate(db, "metric_5m", organizationId, seriesKey, from, to);
  const hourly = await readAggregate(db, "metric_1h", organizationId, seriesKey, from, to);
  return { fiveMinute, hourly };
}
