import { type Database, poolOf } from "./database.ts";
import { likePattern } from "./draft-configuration.ts";

/**
 * The overview's board: every service item with its state, last value and a 24-hour sparkline,
 * problems first. Kept apart from `listItems` (the configuration's alphabetical list).
 */

export const BOARD_STATES = ["CRITICAL", "WARNING", "UNKNOWN", "OK", "NONE"] as const;
/** A row's state on the board; NONE: never evaluated (no threshold, or no result yet). */
export type BoardState = (typeof BOARD_STATES)[number];

export interface BoardRow {
  id: string;
  seriesKey: string;
  url: string;
  schedules: string[];
  hasPolicy: boolean;
  seriesId: number | null;
  state: BoardState;
  lastValue: number | null;
  lastTs: Date | null;
  /** Hourly means over the 24 hours before `now`, oldest first; null for an hour without points. */
  spark: (number | null)[];
}

export interface BoardQuery {
  search?: string;
  /** Only these states (all when empty). */
  states: BoardState[];
  /** "state": problems first (CRITICAL, WARNING, UNKNOWN, OK, never evaluated), then by key; "key": by key. */
  sort: "state" | "key";
  after?: string | null;
  limit: number;
  now: Date;
}

const RANK_SQL = `CASE st.hard_state WHEN 'CRITICAL' THEN 0 WHEN 'WARNING' THEN 1 WHEN 'UNKNOWN' THEN 2 WHEN 'OK' THEN 3 ELSE 4 END`;
const HOUR = 3_600_000;

/** A page's cursor: the last row's rank and key ("2|web01-http-latency"). */
function readCursor(after: string | null | undefined, sort: BoardQuery["sort"]): { rank: number; key: string } | null {
  if (!after) return null;
  if (sort === "key") return { rank: 0, key: after };
  const bar = after.indexOf("|");
  const rank = Number(after.slice(0, bar));
  return bar > 0 && Number.isInteger(rank) ? { rank, key: after.slice(bar + 1) } : null;
}

export async function listBoard(db: Database, organizationId: string, q: BoardQuery): Promise<{ rows: BoardRow[]; next: string | null }> {
  const pattern = likePattern(q.search);
  const cursor = readCursor(q.after, q.sort);
  const ranks = q.states.map((s) => BOARD_STATES.indexOf(s));
  const order = q.sort === "state" ? "rank, i.series_key" : "i.series_key";
  const { rows } = await poolOf(db).query<{
    id: string;
    series_key: string;
    url: string;
    schedules: string[];
    has_policy: boolean;
    series_id: string | null;
    rank: number;
    value: number | null;
    ts: Date | null;
  }>(
    `SELECT * FROM (
       SELECT i.id, i.series_key, s.url, s.schedules, i.policy_id IS NOT NULL AS has_policy, se.id AS series_id,
              ${RANK_SQL} AS rank, last.value, last.ts
       FROM service_items i
       JOIN services s ON s.id = i.service_id
       LEFT JOIN series se ON se.organization_id = i.organization_id AND se.key = i.series_key
       LEFT JOIN item_states st ON st.organization_id = se.organization_id AND st.series_id = se.id
       LEFT JOIN LATERAL (
         SELECT p.ts, p.value FROM metric_points p WHERE p.series_id = se.id ORDER BY p.ts DESC LIMIT 1
       ) last ON true
       WHERE i.organization_id = $1 AND ($2::text IS NULL OR i.series_key ILIKE $2)
     ) i
     WHERE (cardinality($3::int[]) = 0 OR rank = ANY($3::int[]))
       AND ($4::text IS NULL OR (CASE WHEN $5::boolean THEN rank ELSE 0 END, i.series_key) > ($6::int, $4::text))
     ORDER BY ${order}
     LIMIT $7`,
    [organizationId, pattern, ranks, cursor?.key ?? null, q.sort === "state", cursor?.rank ?? 0, q.limit + 1],
  );
  const page = rows.slice(0, q.limit);
  const sparks = await hourlyMeans(
    db,
    page.flatMap((r) => (r.series_id === null ? [] : [Number(r.series_id)])),
    q.now,
  );
  const last = page.at(-1);
  return {
    rows: page.map((r) => ({
      id: r.id,
      seriesKey: r.series_key,
      url: r.url,
      schedules: r.schedules,
      hasPolicy: r.has_policy,
      seriesId: r.series_id === null ? null : Number(r.series_id),
      state: BOARD_STATES[r.rank] ?? "NONE",
      lastValue: r.value,
      lastTs: r.ts,
      spark: r.series_id === null ? [] : (sparks.get(Number(r.series_id)) ?? Array(24).fill(null)),
    })),
    next: rows.length > q.limit && last ? (q.sort === "state" ? `${last.rank}|${last.series_key}` : last.series_key) : null,
  };
}

/** Per series, the mean of each of the 24 hours before `now` (hours counted back from `now`). */
async function hourlyMeans(db: Database, seriesIds: number[], now: Date): Promise<Map<number, (number | null)[]>> {
  const out = new Map<number, (number | null)[]>();
  if (seriesIds.length === 0) return out;
  const from = new Date(now.getTime() - 24 * HOUR);
  const { rows } = await poolOf(db).query<{ series_id: string; slot: number; avg: number }>(
    `SELECT p.series_id, floor(extract(epoch FROM p.ts - $2::timestamptz) / 3600)::int AS slot, avg(p.value) AS avg
     FROM metric_points p
     WHERE p.series_id = ANY($1::bigint[]) AND p.ts >= $2 AND p.ts < $3 AND p.value IS NOT NULL
     GROUP BY 1, 2`,
    [seriesIds, from, now],
  );
  for (const id of seriesIds) out.set(id, Array(24).fill(null));
  for (const r of rows) {
    const spark = out.get(Number(r.series_id));
    if (spark && r.slot >= 0 && r.slot < 24) spark[r.slot] = r.avg;
  }
  return out;
}

/** How many items are in each board state (never-evaluated ones too), for the state filter's counts. */
export async function countBoardStates(db: Database, organizationId: string): Promise<Record<BoardState, number>> {
  const { rows } = await poolOf(db).query<{ rank: number; n: number }>(
    `SELECT ${RANK_SQL} AS rank, count(*)::int AS n
     FROM service_items i
     LEFT JOIN series se ON se.organization_id = i.organization_id AND se.key = i.series_key
     LEFT JOIN item_states st ON st.organization_id = se.organization_id AND st.series_id = se.id
     WHERE i.organization_id = $1 GROUP BY 1`,
    [organizationId],
  );
  const counts: Record<BoardState, number> = { CRITICAL: 0, WARNING: 0, UNKNOWN: 0, OK: 0, NONE: 0 };
  for (const r of rows) counts[BOARD_STATES[r.rank] ?? "NONE"] += r.n;
  return counts;
}
