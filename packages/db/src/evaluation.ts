import type { StateSource } from "@tidemark/alerts";
import { MAX_FUTURE_SKEW_MS } from "@tidemark/protocol";
import type { State, ThresholdPolicy } from "@tidemark/thresholds/policy";
import type pg from "pg";
import { arrayLiteral } from "./array-literal.ts";
import { type Database, isDatabase, poolOf } from "./database.ts";
import { ensureSeriesWithShards } from "./metrics.ts";
import { sharedJsonParser } from "./shared-json.ts";
import { organizationParam, WritePipeline, type WriteStatement } from "./write-statement.ts";

/** A state stamped further ahead than ingest accepts (stored before it refused such points) yields to any new one. */
const FUTURE_SKEW_SQL = `interval '${MAX_FUTURE_SKEW_MS / 1000} seconds'`;

/** The worker's SQL: claiming queued points, loading what evaluation needs, writing states. */

export interface QueuedPoint {
  seriesId: number;
  ts: number;
  value: number | null;
  /** The plugin's exit code (0–3) and first output line, when the result carried them. */
  status?: number | null;
  output?: string | null;
}

export interface ClaimedWork {
  ids: number[];
  organizationId: string;
  /** The shards whose rows were claimed (each locked until the transaction ends), in shard order. */
  shards: number[];
  points: QueuedPoint[];
  /** Those of `shards` the claiming worker also evaluated last (its memory of them is current). */
  evaluatedLastByThisWorker: number[];
  /**
   * For each of `shards` (in its order), how many late points its evaluations have put into their
   * worker's window so far (EvaluationCompletion.latePoints): a worker finding another count than
   * it left knows that another worker's window took points older than its own newest ones.
   */
  latePoints: number[];
  /** Whether other due work waits in the queue (of any organisation). */
  moreQueued: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An organisation's series are split into this many evaluation shards: one worker at a time
 * evaluates a shard, so up to this many workers share one organisation. A series' shard is
 * `series.shard`, which the database derives from its key's host (evaluation_shard(key), migration
 * 20261125020000_evaluation_shard_by_host), so that a host's series, which Bischeck's thresholds
 * read together, are evaluated together. Written into that function; changing it means
 * re-sharding the series and the queued rows.
 */
export const EVALUATION_SHARDS = 8;

/**
 * The evaluation lock key of an organisation's shard: the first 61 bits of its id, then the
 * shard (two organisations sharing a key only wait for each other, which is harmless).
 */
export function evaluationLockKey(organizationId: string, shard: number): bigint {
  if (!UUID.test(organizationId)) throw new Error(`not an organisation id: '${organizationId}'`);
  if (!Number.isInteger(shard) || shard < 0 || shard >= EVALUATION_SHARDS) throw new Error(`not an evaluation shard: ${shard}`);
  const prefix = BigInt(`0x${organizationId.replaceAll("-", "").slice(0, 16)}`) >> 3n;
  return BigInt.asIntN(64, (prefix << 3n) | BigInt(shard));
}

/**
 * Opens a transaction holding every evaluation lock of the organisation (for writers outside
 * the worker: beginOrganizationEvaluation): no shard's decider runs meanwhile. The locks are waited
 * for in shard order, and a worker only ever tries its shards' locks (it never waits for one), so
 * no two takers deadlock. BEGIN and the locks travel in one round trip (the simple protocol takes
 * several statements, but no parameters: the keys are validated numbers).
 */
export async function beginUnderEvaluationLock(client: pg.ClientBase, organizationId: string): Promise<void> {
  const locks = Array.from(
    { length: EVALUATION_SHARDS },
    (_, shard) => `pg_advisory_xact_lock(${evaluationLockKey(organizationId, shard)})`,
  );
  await client.query(`BEGIN; SELECT ${locks.join(", ")}`);
}

/** An organisation's shard with due work, oldest first. */
export interface DueShard {
  organizationId: string;
  shard: number;
  /** How long its oldest due row has waited (ms). */
  waitedMs: number;
  /** Its due queue rows and their points, among the oldest 2 000 due rows of the queue (a worker's batch size is chosen from them). */
  rows: number;
  points: number;
}

/**
 * The shards with due work in queue order (at most `limit`): a worker tries them in turn and
 * takes the first no other worker holds, with as many of the same organisation's next ones as
 * its batch holds.
 */
export async function dueShards(db: Database, limit = 2 * EVALUATION_SHARDS): Promise<DueShard[]> {
  const { rows } = await poolOf(db).query<{ organization_id: string; shard: number; waited_ms: number; rows: number; points: number }>(
    `SELECT organization_id, host_shard AS shard, extract(epoch FROM now() - min(created_at))::float8 * 1000 AS waited_ms,
            count(*)::int AS rows, sum(cardinality(series_ids))::float8 AS points
     FROM (
       SELECT organization_id, host_shard, id, created_at, series_ids FROM evaluation_queue
       WHERE claimed_until IS NULL OR claimed_until < now() ORDER BY id LIMIT 2000
     ) recent
     GROUP BY organization_id, host_shard ORDER BY min(id) LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    organizationId: r.organization_id,
    shard: r.shard,
    waitedMs: r.waited_ms,
    rows: r.rows,
    points: r.points,
  }));
}

/**
 * Opens the worker's evaluation transaction and claims queued work of some of an organisation's
 * shards in one round trip: the lock of each shard no other worker holds (a worker that finds
 * one taken leaves it to its holder rather than wait), a commit that does not wait for the disk
 * (synchronous_commit off, this transaction only), and the claim, sent together in the simple
 * protocol — which takes no parameters, so the values are written in as validated literals.
 * The claim is a statement of its own after the lock, so that its snapshot sees everything the
 * shard's previous holder committed.
 *
 * Should the server crash before the commit is durable, the whole transaction is lost —
 * including the deletion of its queue rows, so those points are simply evaluated again. Nothing
 * accepted is lost; at worst a webhook already sent from it is sent once more. The claimed rows
 * stay locked until commit deletes them, or a crash releases them for another worker.
 *
 * Returns null (the transaction still open, to roll back) when every shard is taken or has no work.
 */
export async function beginEvaluationClaimingWork(
  client: pg.ClientBase,
  organizationId: string,
  shards: readonly number[],
  workerId: string,
  maxRows: number,
  maxPoints = 20_000,
): Promise<ClaimedWork | null> {
  if (!Number.isSafeInteger(maxRows) || !Number.isSafeInteger(maxPoints)) throw new Error("claim limits must be integers");
  if (shards.length === 0) return null;
  // The oldest rows, up to about maxPoints points (at least one row): on the embedded server a
  // transaction blocks everyone else, so it must stay short. Timestamps travel as epoch
  // milliseconds, as the queue holds them: parsing thousands of timestamptz texts into Dates costs
  // more than the claim, and writing each as such in SQL cost PostgreSQL 63–85 ms per 60 000
  // points (issue 22, twenty-seventh round).
  // `more` says whether other due rows wait, so that a draining worker knows when to stop.
  // The locks are tried in shard order; the shards won are kept in a setting the claim reads.
  const keys = [...new Set(shards)].sort((a, b) => a - b).map((shard) => `(${shard}, ${evaluationLockKey(organizationId, shard)}::bigint)`); // validates both, written in below
  const organization = `'${organizationId}'::uuid`;
  const results = (await client.query(
    `BEGIN; SET LOCAL synchronous_commit = off;
     SELECT set_config('tidemark.shards_locked',
       coalesce((SELECT string_agg(v.shard::text, ',' ORDER BY v.shard) FROM (VALUES ${keys.join(", ")}) AS v(shard, key)
                 WHERE pg_try_advisory_xact_lock(v.key)), ''), true);
     WITH locked AS (
       SELECT string_to_array(current_setting('tidemark.shards_locked'), ',')::int[] AS shards
     ), candidates AS (
       SELECT q.id, sum(cardinality(q.series_ids)) OVER (ORDER BY q.id) - cardinality(q.series_ids) AS before
       FROM evaluation_queue q
       WHERE q.organization_id = ${organization} AND q.host_shard = ANY((SELECT shards FROM locked)::int[])
         AND (q.claimed_until IS NULL OR q.claimed_until < now())
       ORDER BY q.id LIMIT ${maxRows}
     ), claimed AS (
       SELECT q.id, q.host_shard AS shard, q.series_ids, q.timestamps_ms, q."values", q.statuses, q.outputs FROM evaluation_queue q
       WHERE q.id IN (SELECT id FROM candidates WHERE before < ${maxPoints})
       ORDER BY q.id FOR UPDATE SKIP LOCKED
     )
     SELECT c.id, c.shard, array_to_string(c.series_ids, ',') AS series_ids, array_to_string(c."values", ',', 'N') AS "values",
            array_to_string(c.statuses, ',', 'N') AS statuses, array_to_json(c.outputs) AS outputs,
            array_to_string(c.timestamps_ms, ',') AS ms,
            (SELECT json_agg(json_build_array(shard, worker_id = ${client.escapeLiteral(workerId)}, late_points)) FROM evaluation_cursors
              WHERE organization_id = ${organization} AND shard IN (SELECT shard FROM claimed)) AS cursors,
            EXISTS (SELECT 1 FROM evaluation_queue q WHERE (q.claimed_until IS NULL OR q.claimed_until < now())
                      AND q.id NOT IN (SELECT id FROM claimed)) AS more
     FROM claimed c ORDER BY c.id`,
  )) as unknown as pg.QueryResult[];
  const rows = (
    results[results.length - 1] as pg.QueryResult<{
      id: string;
      shard: number;
      series_ids: string;
      ms: string;
      values: string;
      statuses: string | null;
      outputs: (string | null)[] | null;
      /** The claimed shards' cursors: [shard, evaluated last by this worker, late points]. */
      cursors: [number, boolean, number][] | null;
      more: boolean;
    }>
  ).rows;
  if (rows.length === 0) return null;
  // The arrays travel as comma-separated text: splitting it is several times faster than
  // parsing PostgreSQL's array syntax element by element.
  const points: QueuedPoint[] = [];
  for (const row of rows) {
    if (row.series_ids === "") continue;
    const seriesIds = row.series_ids.split(",");
    const ms = row.ms.split(",");
    const values = row.values.split(",");
    const statuses = row.statuses?.split(",");
    const outputs = row.outputs;
    for (let i = 0; i < seriesIds.length; i++) {
      const value = values[i]!;
      const point: QueuedPoint = {
        seriesId: Number(seriesIds[i]),
        ts: Number(ms[i]),
        value: value === "N" ? null : Number(value),
      };
      const status = statuses?.[i];
      if (status !== undefined && status !== "N") point.status = Number(status);
      if (outputs?.[i] != null) point.output = outputs[i];
      points.push(point);
    }
  }
  const shardsClaimed = [...new Set(rows.map((r) => r.shard))].sort((a, b) => a - b);
  const cursors = new Map((rows[0]!.cursors ?? []).map(([shard, mine, late]) => [shard, { mine, late: Number(late) }]));
  return {
    ids: rows.map((r) => Number(r.id)),
    organizationId,
    shards: shardsClaimed,
    points,
    evaluatedLastByThisWorker: shardsClaimed.filter((shard) => cursors.get(shard)?.mine),
    latePoints: shardsClaimed.map((shard) => cursors.get(shard)?.late ?? 0),
    moreQueued: rows[0]!.more,
  };
}

/**
 * A transaction db began, handed to db's readers and writers that take part in it (the batch's
 * loads, its alert plan). Its holder does not query it, commit it nor roll it back itself.
 */
export type Transaction = pg.ClientBase;

/**
 * Evaluation writes in an open transaction db began: the writer reads through `transaction`,
 * sends its statements, then commits or rolls back. Either one ends it and gives its connection back.
 */
export interface EvaluationTransaction {
  readonly transaction: Transaction;
  /** Sends a statement without waiting for it (see WritePipeline). */
  send(statement: WriteStatement): void;
  /** Lets the connection work; throws a sent statement's failure as soon as it is known. */
  yieldToConnection(): Promise<void>;
  /** Waits until every statement sent is done; throws the first failure. */
  flush(): Promise<void>;
  /** Waits for the statements, then commits. */
  commit(): Promise<void>;
  /** Undoes the work after a failure (after a statement still on the connection); never throws for the rollback itself. */
  rollback(): Promise<void>;
}

/**
 * Claimed work of some shards in its transaction: its commit also deletes the queue rows (the last
 * statement carries them) and releases the shards' locks; its rollback also backs the claimed rows
 * off (deferEvaluationWork), so that a poison row does not block the queue.
 */
export interface EvaluationClaim extends ClaimedWork, EvaluationTransaction {}

function evaluationTransaction(client: pg.PoolClient, afterRollback: () => Promise<void> = async () => {}): EvaluationTransaction {
  const pipeline = new WritePipeline(client);
  let released = false;
  const release = () => {
    released = true;
    client.release();
  };
  return {
    transaction: client,
    send: (statement) => pipeline.send(statement),
    yieldToConnection: () => pipeline.yieldToConnection(),
    flush: () => pipeline.finish(),
    async commit() {
      await pipeline.finish();
      await client.query("COMMIT");
      release();
    },
    async rollback() {
      if (released) return; // committed
      await pipeline.finish().catch(() => {});
      await client.query("ROLLBACK").catch(() => {});
      release();
      await afterRollback();
    },
  };
}

/**
 * Claims a batch of the shards' queued work (beginEvaluationClaimingWork) on a connection of its
 * own; null (nothing held) when other workers hold the shards or they have no due work.
 */
export async function claimEvaluationWork(
  db: Database,
  organizationId: string,
  shards: readonly number[],
  workerId: string,
  limits: { maxRows: number; maxPoints: number },
): Promise<EvaluationClaim | null> {
  const client = await poolOf(db).connect();
  let work: ClaimedWork | null;
  try {
    work = await beginEvaluationClaimingWork(client, organizationId, shards, workerId, limits.maxRows, limits.maxPoints);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
    throw error;
  }
  if (!work) {
    try {
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    return null;
  }
  const ids = work.ids;
  return { ...work, ...evaluationTransaction(client, () => deferEvaluationWork(db, ids)) };
}

/**
 * Evaluation writes from outside the worker (results evaluated elsewhere: tests, seeds, benches)
 * in a transaction holding every evaluation lock of the organisation (beginUnderEvaluationLock),
 * with a durable commit: unlike the worker's evaluation, nothing would replay these results.
 */
export async function beginOrganizationEvaluation(db: Database, organizationId: string): Promise<EvaluationTransaction> {
  const client = await poolOf(db).connect();
  try {
    await beginUnderEvaluationLock(client, organizationId);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    client.release();
    throw error;
  }
  return evaluationTransaction(client);
}

/** After a failure: back off exponentially so that a poison row does not block the queue. */
export async function deferEvaluationWork(db: Database, ids: number[]): Promise<void> {
  await poolOf(db).query(
    `UPDATE evaluation_queue SET attempts = attempts + 1,
       claimed_until = now() + make_interval(secs => least(300, 2 ^ least(attempts, 8)))
     WHERE id = ANY($1::bigint[])`,
    [ids],
  );
}

export async function queueDepth(db: Database): Promise<{ rows: number; oldest: Date | null }> {
  const { rows } = await poolOf(db).query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(created_at) AS oldest FROM evaluation_queue`,
  );
  return { rows: rows[0]?.n ?? 0, oldest: rows[0]?.oldest ?? null };
}

export interface EvaluatedItem {
  seriesId: number;
  seriesKey: string;
  /** The series' evaluation shard (series.shard). */
  shard: number;
  /** The draft item's id ("" when the deployed item is no longer in the draft, and for agents' heartbeats). */
  itemId: string;
  host: string;
  service: string;
  item: string;
  policy: ThresholdPolicy | null;
  /** The shortest interval of the service's schedules (null for cron and run-after schedules). */
  intervalMs: number | null;
  /** Where the item's state comes from (threshold, plugin, worst). */
  stateSource: StateSource;
  /** No data for this many intervals makes the item stale. */
  staleAfterIntervals: number;
}

/**
 * Every item of the organisation's deployed version with its series id and the policy and alert
 * settings (state source, staleness) frozen in that version, for the evaluator's cache. Saved but
 * undeployed edits are not here.
 */
export async function loadEvaluatedItems(db: Database, organizationId: string): Promise<EvaluatedItem[]> {
  const { rows } = await poolOf(db).query<{
    series_key: string;
    host: string;
    service: string;
    item: string;
    policy: string | null;
    interval_ms: string | null;
    item_id: string | null;
    state_source: string;
    stale_after_intervals: number;
  }>(
    // The item's id is an index probe per row (a subquery), not a join: for an organisation the
    // statistics do not know yet (new, or grown since the last ANALYZE) the planner expects one
    // row on each side and compares every deployed item with every item, which took 236 s for
    // 60 000 items. The probes cost the same whatever the statistics say.
    `SELECT d.series_key, d.host, d.service, d.item, d.policy::text AS policy, d.interval_ms, d.state_source, d.stale_after_intervals,
            (SELECT i.id FROM service_items i WHERE i.organization_id = d.organization_id AND i.series_key = d.series_key) AS item_id
     FROM deployed_items d
     WHERE d.organization_id = $1`,
    [organizationId],
  );
  const series = await ensureSeriesWithShards(
    db,
    organizationId,
    rows.map((r) => r.series_key),
  );
  // Validated when it was deployed (a deployment refuses a draft the model does not accept).
  const policyOf = sharedJsonParser<ThresholdPolicy>();
  return rows.map((r) => {
    const { id, shard } = series.get(r.series_key)!;
    return {
      seriesId: id,
      seriesKey: r.series_key,
      shard,
      itemId: r.item_id ?? "",
      host: r.host,
      service: r.service,
      item: r.item,
      policy: policyOf(r.policy),
      intervalMs: r.interval_ms === null ? null : Number(r.interval_ms),
      stateSource: r.state_source as StateSource,
      staleAfterIntervals: r.stale_after_intervals,
    };
  });
}

export interface HistoryRequest {
  seriesId: number;
  /** Oldest instant needed (epoch ms). */
  sinceMs: number;
  /** At most this many newest points. */
  limit: number;
  /** Only points older than this (epoch ms), when set. */
  untilMs?: number | null;
}

/**
 * Newest points of many series in one round trip, each lookup index-backed. Instants travel as
 * epoch milliseconds both ways and the arrays as literals: formatting and parsing thousands of
 * timestamps a batch cost more than the lookups.
 */
export async function loadRecentPoints(db: Database | Transaction, requests: HistoryRequest[]): Promise<Map<number, QueuedPoint[]>> {
  const out = new Map<number, QueuedPoint[]>();
  if (requests.length === 0) return out;
  const query = isDatabase(db) ? poolOf(db) : db;
  const { rows } = await query.query<{ series_id: number; ms: number; value: number | null }>(
    `SELECT r.series_id::float8 AS series_id, extract(epoch FROM p.ts)::float8 * 1000 AS ms, p.value
     FROM unnest($1::bigint[], $2::float8[], $3::int[], $4::float8[]) AS r(series_id, since_ms, lim, until_ms)
     CROSS JOIN LATERAL (
       SELECT m.ts, m.value FROM metric_points m
       WHERE m.series_id = r.series_id AND m.ts > to_timestamp(r.since_ms / 1000)
         AND (r.until_ms IS NULL OR m.ts < to_timestamp(r.until_ms / 1000))
       ORDER BY m.ts DESC LIMIT r.lim
     ) p`,
    [
      arrayLiteral(requests.map((r) => r.seriesId)),
      arrayLiteral(requests.map((r) => r.sinceMs)),
      arrayLiteral(requests.map((r) => r.limit)),
      arrayLiteral(requests.map((r) => r.untilMs ?? null)),
    ],
  );
  for (const r of rows) {
    const point: QueuedPoint = { seriesId: r.series_id, ts: Math.round(r.ms), value: r.value };
    const list = out.get(r.series_id);
    if (list) list.push(point);
    else out.set(r.series_id, [point]);
  }
  return out;
}

/**
 * For each series, its newest stored point at or before `lastMs` that is not one of `batchMs`
 * (a batch's own points): what the series had settled before the batch, asked only when neither
 * the worker's window nor a state tells it. Each lookup walks the series' index back from
 * `lastMs` past the batch's points.
 */
export async function loadSettledBefore(
  client: Transaction,
  series: { seriesId: number; lastMs: number; batchMs: number[] }[],
): Promise<Map<number, number>> {
  if (series.length === 0) return new Map();
  const { rows } = await client.query<{ series_id: number; ms: number }>(
    `SELECT r.series_id::float8 AS series_id, extract(epoch FROM p.ts)::float8 * 1000 AS ms
     FROM unnest($1::bigint[], $2::float8[], $3::text[]) AS r(series_id, last_ms, batch_ms)
     CROSS JOIN LATERAL (
       SELECT m.ts FROM metric_points m
       WHERE m.series_id = r.series_id AND m.ts <= to_timestamp(r.last_ms / 1000)
         AND m.ts <> ALL (ARRAY(SELECT to_timestamp(b / 1000) FROM unnest(r.batch_ms::float8[]) AS b))
       ORDER BY m.ts DESC LIMIT 1
     ) p`,
    [
      arrayLiteral(series.map((s) => s.seriesId)),
      arrayLiteral(series.map((s) => s.lastMs)),
      arrayLiteral(series.map((s) => `{${s.batchMs.join(",")}}`)),
    ],
  );
  return new Map(rows.map((r) => [r.series_id, Math.round(r.ms)]));
}

export interface ItemStateRow {
  seriesId: number;
  ts: number;
  state: State;
  hardState: State;
  softCount: number;
}

/** The state machines' memory; no row locks: their only writer is the lock holder of the series' shard. */
export async function loadItemStates(client: Transaction, organizationId: string, seriesIds: number[]): Promise<Map<number, ItemStateRow>> {
  const { rows } = await client.query<{ series_id: number; ms: number; state: State; hard_state: State; soft_count: number }>(
    `SELECT series_id::float8 AS series_id, extract(epoch FROM ts)::float8 * 1000 AS ms, state, hard_state, soft_count
     FROM item_states WHERE organization_id = $1 AND series_id = ANY($2::bigint[])`,
    [organizationId, seriesIds],
  );
  return new Map(
    rows.map((r) => [
      r.series_id,
      { seriesId: r.series_id, ts: Math.round(r.ms), state: r.state, hardState: r.hard_state, softCount: r.soft_count },
    ]),
  );
}

export interface EvaluationRecord {
  seriesId: number;
  ts: number;
  state: State;
  hardState: State;
  softCount: number;
  /** Whether this result hardened the state (the state-change row's `hard`). */
  hard: boolean;
  value: number | null;
  threshold: number | null;
  warning: number | null;
  critical: number | null;
  explanation: string;
  /** Whether the state (soft or hard) differs from the previous result: a state-change row. */
  changed: boolean;
}

/** What an evaluation transaction finishes with: its queue rows done, its worker the shards' last evaluator. */
export interface EvaluationCompletion {
  shards: number[];
  /**
   * For each of `shards`, the late points the batch put into the window: older than the series'
   * newest point held, so that another worker's catch-up, which reads what is newer than its own
   * newest point, would not find them. Added to the shard's count (ClaimedWork.latePoints).
   */
  latePoints: number[];
  workerId: string;
  queueIds: number[];
}

/**
 * Adds to `statement` the upsert of the latest state per series and the state changes of the
 * organisation's series (a record of another organisation's series fails the statement: the rows'
 * keys include the organisation); given a completion, also the deletion of the evaluated queue
 * rows and the worker as the shards' last evaluator — one statement, one round trip. Instants
 * travel as epoch milliseconds (no Date formatting).
 */
export function addEvaluationWrites(
  statement: WriteStatement,
  organizationId: string,
  records: EvaluationRecord[],
  completion?: EvaluationCompletion,
): void {
  const latest = new Map<number, EvaluationRecord>();
  for (const r of records) {
    const seen = latest.get(r.seriesId);
    if (!seen || seen.ts <= r.ts) latest.set(r.seriesId, r);
  }
  if (latest.size > 0) {
    const l = [...latest.values()];
    const rows = statement.unnest([
      [l.map((r) => r.seriesId), "bigint[]"],
      [l.map((r) => r.ts), "float8[]"],
      [l.map((r) => r.state), "check_state[]"],
      [l.map((r) => r.hardState), "check_state[]"],
      [l.map((r) => r.softCount), "int[]"],
    ]);
    statement.with(
      "states",
      `INSERT INTO item_states (organization_id, series_id, ts, state, hard_state, soft_count)
       SELECT ${organizationParam(statement, organizationId)}, s.series_id, to_timestamp(s.ms / 1000), s.state, s.hard_state, s.soft_count
       FROM ${rows} AS s(series_id, ms, state, hard_state, soft_count)
       ON CONFLICT (organization_id, series_id) DO UPDATE SET ts = excluded.ts, state = excluded.state, hard_state = excluded.hard_state, soft_count = excluded.soft_count
       WHERE item_states.ts <= excluded.ts OR item_states.ts > now() + ${FUTURE_SKEW_SQL}`,
    );
  }
  const changes = records.filter((r) => r.changed);
  if (changes.length > 0) {
    const rows = statement.unnest([
      [changes.map((r) => r.seriesId), "bigint[]"],
      [changes.map((r) => r.ts), "float8[]"],
      [changes.map((r) => r.state), "check_state[]"],
      [changes.map((r) => r.hard), "bool[]"],
      [changes.map((r) => r.value), "float8[]"],
      [changes.map((r) => r.threshold), "float8[]"],
      [changes.map((r) => r.warning), "float8[]"],
      [changes.map((r) => r.critical), "float8[]"],
      [changes.map((r) => r.explanation), "text[]"],
    ]);
    // The worker evaluates a series' points strictly after its item_states instant, written in the
    // same transaction, so its changes are new: a plain insert, not a speculative one (should one
    // collide all the same, the batch fails and its retry starts from item_states). Other writers
    // (seeds, benches) may replay and skip what is stored.
    statement.with(
      "changes",
      `INSERT INTO state_changes (organization_id, series_id, ts, state, hard, value, threshold, warning, critical, explanation)
       SELECT ${organizationParam(statement, organizationId)}, c.series_id, to_timestamp(c.ms / 1000), c.state, c.hard, c.value, c.threshold, c.warning, c.critical, c.explanation
       FROM ${rows} AS c(series_id, ms, state, hard, value, threshold, warning, critical, explanation)
       ${completion ? "" : "ON CONFLICT DO NOTHING"}`,
    );
  }
  if (completion) {
    statement.with("done", `DELETE FROM evaluation_queue WHERE id = ANY(${statement.param(completion.queueIds, "bigint[]")})`);
    statement.with(
      "cursor",
      `INSERT INTO evaluation_cursors (organization_id, shard, worker_id, updated_at, late_points)
       SELECT ${organizationParam(statement, organizationId)}, c.shard, ${statement.param(completion.workerId, "text")}, now(), c.late
       FROM unnest(${statement.param(completion.shards, "int[]")}, ${statement.param(completion.latePoints, "bigint[]")}) AS c(shard, late)
       ON CONFLICT (organization_id, shard) DO UPDATE SET worker_id = excluded.worker_id, updated_at = excluded.updated_at,
         late_points = evaluation_cursors.late_points + excluded.late_points`,
    );
  }
}

/**
 * Adds to `statement` that no worker is the organisation's shards' last evaluator any more: what
 * workers remember of them (states, alert memory) no longer matches what the statement writes,
 * so their next batch reads it again. Their late-point counts stay (they only grow). Given
 * `whenAnyIn`, a part of the statement with RETURNING rows, only when that part returned some.
 */
export function addForgetEvaluators(statement: WriteStatement, organizationId: string, whenAnyIn?: string): void {
  statement.with(
    "forget",
    `UPDATE evaluation_cursors SET worker_id = '', updated_at = now() WHERE organization_id = ${organizationParam(statement, organizationId)}
     ${whenAnyIn ? `AND EXISTS (SELECT 1 FROM ${whenAnyIn})` : ""}`,
  );
}

/**
 * Queues already-stored points for evaluation, an hour per queue row (and shard) in time order (the seeder
 * uses it so that the demo's states and alerts come from its history through the real pipeline).
 */
export async function queueStoredPoints(db: Database, organizationId: string, seriesIds: number[], from: Date, to: Date): Promise<number> {
  const { rowCount } = await poolOf(db).query(
    `INSERT INTO evaluation_queue (organization_id, host_shard, series_ids, timestamps_ms, "values")
     SELECT $1, s.shard, array_agg(p.series_id ORDER BY p.ts, p.series_id), array_agg((date_part('epoch', p.ts) * 1000)::bigint ORDER BY p.ts, p.series_id),
            array_agg(p.value ORDER BY p.ts, p.series_id)
     FROM metric_points p JOIN series s ON s.organization_id = $1 AND s.id = p.series_id
     WHERE p.series_id = ANY($2::bigint[]) AND p.ts >= $3 AND p.ts < $4
     GROUP BY date_trunc('hour', p.ts), s.shard ORDER BY date_trunc('hour', p.ts), s.shard`,
    [organizationId, seriesIds, from, to],
  );
  return rowCount ?? 0;
}
