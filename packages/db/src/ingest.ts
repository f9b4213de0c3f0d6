import type { CheckResult, IngestBatch, IngestResponse } from "@tidemark/protocol";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { arrayLiteral } from "./array-literal.ts";
import { configurationRevision, revisionSql } from "./configuration-revision.ts";
import { type Database, poolOf } from "./database.ts";
import { analyzeAfterBulkWrite } from "./statistics.ts";

/**
 * Stores one agent batch: the points of known series, once (a retried batch id stores nothing
 * again), together with the work item that has the worker evaluate exactly the new points — all
 * in one statement, so an acknowledged point is never lost nor left unevaluated.
 */

export interface IngestInput {
  organizationId: string;
  agentId: string | null;
  batch: IngestBatch;
}

/**
 * COPY pays a staging table and two extra round trips per batch: below this many points one
 * statement is faster (an agent's typical minute, a calculation tick, a one-second series).
 */
export const COPY_FROM_POINTS = 500;

/**
 * Known keys (those of the organisation's service items) → series ids, creating missing series.
 * The batch's distinct keys travel as their own array ($4), so that both lookups are index
 * probes per key (joining CTEs made the planner compare every key with every other). The series
 * is looked up in a LATERAL subquery that LIMIT keeps from being flattened into a join: for an
 * organisation the statistics do not know yet (new, or grown since the last ANALYZE), a join was
 * planned for one row a side and compared every item with every series, which held a 30 000-
 * result calculation batch for minutes. A probe per key costs the same whatever they say.
 */
const RESOLVED_SERIES = `
  known AS (
    SELECT si.series_key AS key, s.id, s.shard FROM service_items si
    LEFT JOIN LATERAL (SELECT s.id, s.shard FROM series s WHERE s.organization_id = $1 AND s.key = si.series_key LIMIT 1) s ON true
    WHERE si.organization_id = $1 AND si.series_key = ANY($4::text[])
  ),
  created AS (
    INSERT INTO series (organization_id, key)
    SELECT $1, k.key FROM known k WHERE k.id IS NULL
    ON CONFLICT DO NOTHING RETURNING id, key, shard
  ),
  ids AS (
    SELECT id, key, shard FROM created
    UNION ALL
    SELECT id, key, shard FROM known WHERE id IS NOT NULL
  )`;

/**
 * Inserted rows go straight into the evaluation queue in the same statement, a row per shard of
 * their series. A plain insert stores every resolved point or fails, so the queue takes them from
 * `resolved`, which knows their shards (joining what was inserted back to the series cost ingest
 * a tenth of its time); one that skips stored points queues what it inserted.
 */
function queueInserted(skipStored: boolean): string {
  const points = skipStored
    ? "SELECT p.*, (date_part('epoch', p.ts) * 1000)::bigint AS ms, ids.shard FROM inserted p JOIN ids ON ids.id = p.series_id"
    : "SELECT * FROM resolved WHERE EXISTS (SELECT 1 FROM claimed)";
  return `
  queued AS (
    INSERT INTO evaluation_queue (organization_id, host_shard, series_ids, timestamps_ms, "values", statuses, outputs)
    SELECT $1, p.shard, array_agg(p.series_id), array_agg(p.ms), array_agg(p.value),
           CASE WHEN count(p.status) > 0 THEN array_agg(p.status) END, CASE WHEN count(p.output) > 0 THEN array_agg(p.output) END
    FROM (${points}) p GROUP BY p.shard
    RETURNING cardinality(series_ids) AS n
  )`;
}

/**
 * Claims the batch id when `ready` holds, inserts `resolved`'s points, queues them: the part of
 * an ingest statement after its points' series are known (by key or by id).
 *
 * Points are inserted plainly first: a point another batch already stored (a re-sent result
 * under a new batch id) is rare, and skipping duplicates (ON CONFLICT) makes every insert a
 * speculative one, half again as costly. A duplicate fails the statement, which changes nothing,
 * and the batch goes again with `skipStored`.
 */
function storeAndQueue(ready: string, skipStored: boolean): string {
  return `
  claimed AS (
    INSERT INTO ingest_batches (organization_id, batch_id, agent_id, point_count)
    SELECT $1, $2, $3, (SELECT count(*) FROM resolved)
    WHERE ${ready}
    ON CONFLICT DO NOTHING RETURNING batch_id
  ),
  inserted AS (
    INSERT INTO metric_points (organization_id, series_id, ts, value, status, output)
    SELECT $1, series_id, ts, value, status, output FROM resolved
    WHERE EXISTS (SELECT 1 FROM claimed)
    ${skipStored ? "ON CONFLICT DO NOTHING" : ""} RETURNING series_id, ts, value, status, output
  ),
  ${queueInserted(skipStored)}`;
}

/**
 * The whole batch in one statement (one round trip, atomic without BEGIN/COMMIT) from `input`
 * (key, ts in epoch ms, value): resolve the keys, claim the batch id, insert the points, queue
 * them. A series created concurrently by another batch is invisible to this statement's snapshot;
 * then nothing is written (`unresolved`) and the caller runs it again.
 */
function ingestStatement(input: string, skipStored: boolean): string {
  return `
  WITH input AS (${input}), ${RESOLVED_SERIES},
  -- A known key without a series that this statement did not create either (another batch
  -- created it meanwhile). Known keys without a series are few, and none most of the time: an
  -- EXCEPT of every known key against every resolved one hashed both (35 ms at 30 000 keys).
  unresolved AS (SELECT k.key FROM known k WHERE k.id IS NULL AND NOT EXISTS (SELECT 1 FROM created c WHERE c.key = k.key)),
  resolved AS (
    SELECT ids.id AS series_id, ids.shard, to_timestamp(i.ts / 1000) AS ts, i.ts::bigint AS ms, i.value, i.status, i.output FROM input i JOIN ids USING (key)
  ),
  ${storeAndQueue("NOT EXISTS (SELECT 1 FROM unresolved)", skipStored)}
  SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
         EXISTS (SELECT 1 FROM unresolved) AS unresolved,
         coalesce((SELECT sum(n) FROM queued), 0)::int AS accepted,
         -- $4 and known's keys are distinct (service items' keys are unique): equal counts, no unknown key.
         CASE WHEN (SELECT count(*) FROM known) = cardinality($4::text[]) THEN '{}'::text[]
              ELSE ARRAY(SELECT unnest($4::text[]) EXCEPT SELECT key FROM known) END AS unknown,
         (SELECT count(*) FROM created)::int AS created`;
}

/** The batch's results as JSON parameter $5: JSON.stringify keeps only these fields. */
const JSON_INPUT = `SELECT * FROM json_to_recordset($5::json) AS i(key text, ts float8, value float8, status int4, output text)`;
const POINT_FIELDS = ["key", "ts", "value", "status", "output"];

/**
 * From the session's staging table that COPY just filled, emptied by the same statement. The
 * rows stay session-local (ON COMMIT PRESERVE ROWS) between the two autocommitted statements.
 */
const STAGE_INPUT = `DELETE FROM ingest_results_stage RETURNING key, ts, value, status, output`;

const STATEMENTS = {
  json: { plain: ingestStatement(JSON_INPUT, false), skippingStored: ingestStatement(JSON_INPUT, true) },
  stage: { plain: ingestStatement(STAGE_INPUT, false), skippingStored: ingestStatement(STAGE_INPUT, true) },
};

/** A unique violation on the points' key: the batch holds a point already stored. */
function isStoredPointConflict(error: unknown): boolean {
  return (error as { code?: string })?.code === "23505";
}

/** Connections that already have their staging table (a temporary table lives as long as its session). */
const staged = new WeakSet<pg.ClientBase>();

/** COPY's text format: backslash, tab and line breaks inside a value are escaped. */
function copyText(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

async function copyToStage(client: pg.ClientBase, results: IngestBatch["results"]): Promise<void> {
  if (!staged.has(client)) {
    await client.query(
      `CREATE TEMP TABLE IF NOT EXISTS ingest_results_stage (key text, ts float8, value float8, status int4, output text) ON COMMIT PRESERVE ROWS`,
    );
    staged.add(client);
  }
  let text = "";
  for (const r of results)
    text += `${copyText(r.key)}\t${r.ts}\t${r.value ?? "\\N"}\t${r.status ?? "\\N"}\t${r.output === undefined ? "\\N" : copyText(r.output)}\n`;
  const stream = client.query(copyFrom("COPY ingest_results_stage (key, ts, value, status, output) FROM STDIN"));
  await new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
    stream.end(text);
  });
}

interface IngestRow {
  claimed: boolean;
  unresolved: boolean;
  accepted: number;
  unknown: string[];
  /** Series the statement created (an organisation's first points). */
  created: number;
}

/**
 * Small batches, and every batch on the embedded server (which cannot take COPY FROM STDIN):
 * one statement with the points as JSON. Big batches on real PostgreSQL: COPY into the session's
 * staging table, then the same statement reading it — two round trips, no transaction block.
 */
export async function ingestBatch(db: Database, input: IngestInput): Promise<IngestResponse> {
  const { batch, organizationId } = input;
  const useCopy = !db.info.embedded && batch.results.length >= COPY_FROM_POINTS;
  const keys = [...new Set(batch.results.map((r) => r.key))];
  const params: unknown[] = [organizationId, batch.batchId, input.agentId, arrayLiteral(keys)];
  if (!useCopy) params.push(JSON.stringify(batch.results, POINT_FIELDS));
  const statements = useCopy ? STATEMENTS.stage : STATEMENTS.json;
  const client = await poolOf(db).connect();
  let broken: Error | undefined;
  let skipStored = false;
  let stageFilled = false;
  let stored: IngestRow;
  try {
    for (let attempt = 1; ; attempt++) {
      let row: IngestRow;
      if (useCopy && !stageFilled) {
        await copyToStage(client, batch.results);
        stageFilled = true;
      }
      try {
        row = (await client.query<IngestRow>(skipStored ? statements.skippingStored : statements.plain, params)).rows[0]!;
      } catch (error) {
        // The failed statement changed nothing, the staging table included: go again skipping stored points.
        if (skipStored || !isStoredPointConflict(error)) throw error;
        skipStored = true;
        continue;
      }
      stageFilled = false;
      if (row.unresolved && attempt < 3) continue;
      if (row.unresolved) throw new Error(`the series of batch ${batch.batchId} could not be resolved`);
      stored = row;
      break;
    }
  } catch (error) {
    // A failed statement leaves its rows in the staging table: the connection is closed, not reused.
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
  // Once the connection is back: holding it while ANALYZE asks the pool for another could wait on
  // a pool whose every connection is held by a batch doing the same.
  await analyzeAfterBulkWrite(db, stored.created, ["series"]);
  return { batchId: batch.batchId, accepted: stored.accepted, duplicate: !stored.claimed, unknownSeries: stored.unknown.sort() };
}

/** A point of a series the caller resolved itself (ts in epoch ms). */
export interface ResolvedPoint {
  seriesId: number;
  ts: number;
  value: number | null;
  status?: number;
  output?: string;
}

export interface ResolvedIngestInput {
  organizationId: string;
  agentId: string | null;
  batchId: string;
  /**
   * The organisation's configuration revision (configurationRevision) under which the caller
   * found each point's series as that of one of the organisation's service items.
   */
  revision: string;
  points: readonly ResolvedPoint[];
}

/**
 * As the key statement, from points whose series the caller already knows: no key is looked up
 * (two index probes a key, a staging COPY and its round trip for a large batch: about 15 of a
 * 3 000-point statement's 38 ms). The keys a statement by key accepts are its organisation's
 * service items', which only a configuration change changes: so the points are stored only while
 * the revision they were resolved under holds, in the statement's own snapshot, and every series
 * is the organisation's. Otherwise nothing is written.
 */
function resolvedIngestStatement(skipStored: boolean): string {
  return `
  WITH input AS (
    SELECT * FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::int4[], $8::text[]) AS i(series_id, ts, value, status, output)
  ),
  ids AS (SELECT s.id, s.shard FROM series s WHERE s.organization_id = $1 AND s.id = ANY($4::bigint[])),
  resolved AS (
    SELECT i.series_id, ids.shard, to_timestamp(i.ts / 1000) AS ts, i.ts::bigint AS ms, i.value, i.status, i.output FROM input i JOIN ids ON ids.id = i.series_id
  ),
  holding AS (SELECT ${revisionSql("$1")} = $9 AND (SELECT count(*) FROM resolved) = cardinality($4::bigint[]) AS holds),
  ${storeAndQueue("(SELECT holds FROM holding)", skipStored)}
  SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
         (SELECT holds FROM holding) AS holds,
         coalesce((SELECT sum(n) FROM queued), 0)::int AS accepted`;
}

const RESOLVED_STATEMENTS = { plain: resolvedIngestStatement(false), skippingStored: resolvedIngestStatement(true) };

/**
 * Stores and queues points of series the caller resolved under `input.revision` (the worker's
 * calculations from their configuration, the web's ingest from `loadServiceItemSeries`): one
 * statement, idempotent per batch id, as ingestBatch. Null when the revision no longer holds or a series is not the
 * organisation's: nothing was stored, and the batch goes through ingestBatch by its keys.
 */
export async function ingestResolvedBatch(
  db: Database,
  input: ResolvedIngestInput,
): Promise<{ accepted: number; duplicate: boolean } | null> {
  const { points } = input;
  const params: unknown[] = [
    input.organizationId,
    input.batchId,
    input.agentId,
    arrayLiteral(points.map((p) => p.seriesId)),
    arrayLiteral(points.map((p) => p.ts)),
    arrayLiteral(points.map((p) => p.value)),
    arrayLiteral(points.map((p) => p.status ?? null)),
    arrayLiteral(points.map((p) => p.output ?? null)),
    input.revision,
  ];
  let row: { claimed: boolean; holds: boolean; accepted: number };
  try {
    row = (await poolOf(db).query(RESOLVED_STATEMENTS.plain, params)).rows[0];
  } catch (error) {
    // A point already stored: the statement changed nothing; again, skipping stored points.
    if (!isStoredPointConflict(error)) throw error;
    row = (await poolOf(db).query(RESOLVED_STATEMENTS.skippingStored, params)).rows[0];
  }
  if (!row.holds) return null;
  return { accepted: row.accepted, duplicate: !row.claimed };
}

/**
 * Each of the organisation's service items' series by key (items without a series yet have none),
 * with the configuration revision read before them: the keys the ingest by key accepts and finds
 * a series for, while that revision holds.
 */
export interface ServiceItemSeries {
  revision: string;
  seriesIdByKey: Map<string, number>;
}

/** Null when the organisation has more than `atMost` of them (nothing more is read). */
export async function loadServiceItemSeries(db: Database, organizationId: string, atMost: number): Promise<ServiceItemSeries | null> {
  if (!Number.isSafeInteger(atMost) || atMost < 0) throw new Error(`not a count: ${atMost}`);
  // Read first: the items are of this revision or a newer one, which fails ingestResolvedBatch's check.
  const revision = await configurationRevision(db, organizationId);
  const { rows } = await poolOf(db).query<{ key: string; id: string }>(
    `SELECT si.series_key AS key, s.id FROM service_items si JOIN series s ON s.organization_id = si.organization_id AND s.key = si.series_key
     WHERE si.organization_id = $1 LIMIT $2`,
    [organizationId, atMost + 1],
  );
  if (rows.length > atMost) return null;
  return { revision, seriesIdByKey: new Map(rows.map((r) => [r.key, Number(r.id)])) };
}

/**
 * ingestBatch, by series id (ingestResolvedBatch, `byId`) when `known` has every key's series; by
 * key when it lacks one, or when its revision no longer holds (`stale`: the caller reads its
 * series again).
 */
export async function ingestByKnownSeries(
  db: Database,
  input: IngestInput,
  known: ServiceItemSeries | undefined,
): Promise<{ response: IngestResponse; byId: boolean; stale: boolean }> {
  const { organizationId, agentId, batch } = input;
  const points = known ? resolvedPoints(batch.results, known.seriesIdByKey) : null;
  if (known && points) {
    const stored = await ingestResolvedBatch(db, { organizationId, agentId, batchId: batch.batchId, revision: known.revision, points });
    if (stored) return { response: { batchId: batch.batchId, ...stored, unknownSeries: [] }, byId: true, stale: false };
  }
  return { response: await ingestBatch(db, input), byId: false, stale: points !== null };
}

/** The results as points of their series, or null when a key has no series in `seriesIdByKey`. */
function resolvedPoints(results: readonly CheckResult[], seriesIdByKey: ReadonlyMap<string, number>): ResolvedPoint[] | null {
  const points: ResolvedPoint[] = [];
  for (const r of results) {
    const seriesId = seriesIdByKey.get(r.key);
    if (seriesId === undefined) return null;
    points.push({ seriesId, ts: r.ts, value: r.value, status: r.status, output: r.output });
  }
  return points;
}
