import { type AlertMemoryLookup, itemState, PLUGIN_MAX_SOFT, pluginState, type SeriesAlertMemory, STALE_STATUS } from "@tidemark/alerts";
import type { Database } from "@tidemark/db/client";
import {
  addEvaluationWrites,
  claimEvaluationWork,
  dueShards,
  type EvaluationRecord,
  type ItemStateRow,
  loadItemStates,
  loadSettledBefore,
  type QueuedPoint,
  type Transaction,
  WriteStatement,
} from "@tidemark/db/evaluation";
import { MAX_FUTURE_SKEW_MS } from "@tidemark/protocol";
import { evaluateThreshold, INITIAL_HARD_STATE, nextHardState } from "@tidemark/thresholds";
import { EvaluatedPoint } from "./evaluated-point.ts";
import type { OrganizationCache, OrganizationConfig } from "./organization-cache.ts";
import type { OrganizationWindows } from "./series-window.ts";
import { type BatchLimits, preferOwnShards, shardKey, shardsForBatch } from "./shard-choice.ts";
import { BatchMemory, emptyShardMemory, type ShardMemory } from "./shard-memory.ts";
import { refreshWindow } from "./window-loader.ts";

/** A batch evaluated and not yet written, as the hooks see it. */
export interface EvaluatedBatch {
  /** The batch's transaction, for db's reads within it. */
  client: Transaction;
  organizationId: string;
  records: EvaluationRecord[];
  config: OrganizationConfig;
  /** The batch's one write statement: a hook adds its writes here. */
  statement: WriteStatement;
  /** The alert memory of the organisation's series from earlier batches (while it is current) and earlier slices of this one. */
  alerts: AlertMemoryLookup;
  /**
   * The same object for every slice of one batch, a new one for each batch: a hook keys what it
   * reads once per batch (in its transaction) on it, in a WeakMap.
   */
  scope: object;
}

export interface EvaluationHooks {
  /**
   * Called for each slice of the batch before its writes are sent (alerts are raised here);
   * returns the alert memory of the slice's series, to keep once the batch commits.
   */
  beforeWrite?: (batch: EvaluatedBatch) => Promise<Map<number, SeriesAlertMemory> | undefined>;
}

export interface BatchResult {
  points: number;
  organizationId: string | null;
  /** The shards the batch evaluated (none when it found nothing to take). */
  shards: number[];
  /** Whether more due work was queued when this batch was claimed. */
  moreQueued: boolean;
}

/** Where a batch's time goes: database round trips versus evaluation in memory. */
export const EVALUATION_PHASES = ["claim", "load", "evaluate", "alerts", "write", "commit"] as const;
export type EvaluationPhase = (typeof EVALUATION_PHASES)[number];

export interface EvaluatorOptions {
  /** Queue rows claimed per batch at most. */
  maxQueueRows?: number;
  /** Points claimed per batch at most (at least one queue row is). */
  maxBatchPoints?: number;
  /** An organisation whose due work holds at most this many points is one batch (shardsForBatch). */
  wholeOrganizationPoints?: number;
  /**
   * Records per slice: a batch is evaluated and written slice by slice in its time order, each
   * slice's statement sent while the next slice is evaluated. A slice ends at this many records
   * (points that write a state), not points: what a slice's statement costs the database follows
   * its records, and points that write nothing (items without a state of their own) cost it
   * nothing.
   */
  sliceRecords?: number;
}

/**
 * Takes queued points (from agents and calculations), evaluates each against its item's
 * threshold policy in time order, and writes states and state changes — in one transaction
 * with the claim, so that every queued point is evaluated exactly once across workers, and a
 * worker killed mid-way leaves its claim for another.
 *
 * Work is partitioned by series: an organisation's series fall into EVALUATION_SHARDS shards,
 * and one worker at a time evaluates a shard (a lock it tries, leaving the shard to another
 * worker that holds it), so several workers share one organisation while each series keeps one
 * decider and its time order. A batch takes all of an organisation's due shards when its work
 * is light, one shard when there is a backlog (shardsForBatch).
 *
 * While it stays a shard's last evaluator (the claim tells), the window of the shard's series
 * and their state machines (thresholds and alerts) are current in memory, and a batch costs
 * three round trips after the look at the queue: begin with the locks and claim, the writes (one
 * statement per slice, sent while the next slice is evaluated), commit. Series of shards the
 * batch does not hold that expressions read are caught up from the database every batch.
 */
export class Evaluator {
  /** Identifies this evaluator's memory in evaluation_cursors. */
  private readonly id = `${process.pid}-${crypto.randomUUID()}`;
  /** By organisation and shard. */
  private readonly remembered = new Map<string, ShardMemory>();
  /** Shards (organisation/shard) this worker believes it evaluated last: it returns to them first, its memory of them current. */
  private readonly lastEvaluated = new Set<string>();
  /** By organisation/shard, the shard's late-point count as this worker's last committed batch of it left it (ClaimedWork.latePoints). */
  private readonly latePointsLeft = new Map<string, number>();
  /**
   * Series read from the database by a batch that does not evaluate them (one not holding their
   * shard, or holding it before this worker caught them up), since their own shard last evaluated
   * them here, each with the newest point the window held at the first such read: what came after
   * it was read ahead of its evaluation.
   */
  private readonly readAhead = new Map<number, number>();
  /** Milliseconds spent per phase since start, over committed and failed batches alike. */
  readonly phaseMs: Record<EvaluationPhase, number> = { claim: 0, load: 0, evaluate: 0, alerts: 0, write: 0, commit: 0 };
  private mark = 0;

  private lap(phase: EvaluationPhase): void {
    const now = performance.now();
    this.phaseMs[phase] += now - this.mark;
    this.mark = now;
  }

  constructor(
    private readonly db: Database,
    private readonly organizations: OrganizationCache,
    private readonly windows: OrganizationWindows,
    private readonly hooks: EvaluationHooks = {},
    options: EvaluatorOptions = {},
  ) {
    this.limits = {
      maxRows: options.maxQueueRows ?? 200,
      maxPoints: options.maxBatchPoints ?? 20_000,
      wholeOrganizationPoints: options.wholeOrganizationPoints ?? 8000,
    };
    this.sliceRecords = options.sliceRecords ?? 1000;
    // A slice of no records would end where it began, and the batch never would.
    if (!(this.sliceRecords >= 1)) throw new Error("sliceRecords must be at least 1");
  }

  private readonly limits: BatchLimits;
  private readonly sliceRecords: number;

  async runBatch(): Promise<BatchResult> {
    // The configuration is read before the transaction: on the embedded server an open
    // transaction blocks every other connection, including the pool the cache reads with.
    let candidates = preferOwnShards(await dueShards(this.db), this.lastEvaluated);
    while (candidates.length > 0) {
      const chosen = shardsForBatch(candidates, this.limits);
      candidates = candidates.filter((c) => !chosen.includes(c));
      const organizationId = chosen[0]!.organizationId;
      const config = await this.organizations.get(organizationId);
      const result = await this.evaluateShards(
        organizationId,
        chosen.map((c) => c.shard),
        config,
      );
      if (result) return result;
    }
    // Other workers hold every shard with due work: look again later rather than spin on their locks.
    return { points: 0, organizationId: null, shards: [], moreQueued: false };
  }

  /** Claims and evaluates a batch of the shards' work; null (nothing changed) when other workers hold the shards or they have none. */
  private async evaluateShards(organizationId: string, tried: number[], config: OrganizationConfig): Promise<BatchResult | null> {
    this.mark = performance.now();
    const work = await claimEvaluationWork(this.db, organizationId, tried, this.id, this.limits);
    this.lap("claim");
    if (!work) return null;
    const memoryKeys = work.shards.map((shard) => shardKey(organizationId, shard));
    try {
      const client = work.transaction;
      const byShard = new Map<number, ShardMemory>();
      const lateElsewhere = new Set<number>();
      for (const [i, shard] of work.shards.entries()) {
        const current = work.evaluatedLastByThisWorker.includes(shard);
        if (!current) this.lastEvaluated.delete(memoryKeys[i]!);
        byShard.set(shard, this.rememberedFor(memoryKeys[i]!, config, current));
        // Another worker's batches put late points into its window, older than the newest point
        // this worker's window holds: the catch-up reads what is newer, so they load afresh.
        if ((this.latePointsLeft.get(memoryKeys[i]!) ?? 0) !== work.latePoints[i]) lateElsewhere.add(shard);
      }
      if (lateElsewhere.size > 0) this.forgetShardWindows(config, lateElsewhere);
      const known = new BatchMemory(byShard, config);
      const states = await this.prepare(client, config, work.points, known);
      const alerts = new Map<number, SeriesAlertMemory>();
      const latePoints = new Map<number, number>();
      const scope = {};
      const alertsBefore: AlertMemoryLookup = {
        get: (seriesId) => alerts.get(seriesId) ?? known.alerts.get(seriesId),
        has: (seriesId) => alerts.has(seriesId) || known.alerts.has(seriesId),
      };
      // The database writes slice k while this process evaluates slice k + 1: on two cores
      // neither waits for the other (each used to take about half of a batch's time).
      let next = 0;
      do {
        const slice = this.evaluateSlice(config, work.points, next, states, known, latePoints);
        const { records } = slice;
        next = slice.next;
        this.lap("evaluate");
        const statement = new WriteStatement();
        const last = next >= work.points.length;
        addEvaluationWrites(
          statement,
          organizationId,
          records,
          last
            ? {
                shards: work.shards,
                latePoints: work.shards.map((shard) => latePoints.get(shard) ?? 0),
                workerId: this.id,
                queueIds: work.ids,
              }
            : undefined,
        );
        const sliceAlerts = await this.hooks.beforeWrite?.({
          client,
          organizationId,
          records,
          config,
          statement,
          alerts: alertsBefore,
          scope,
        });
        sliceAlerts?.forEach((memory, seriesId) => {
          alerts.set(seriesId, memory);
        });
        this.lap("alerts");
        work.send(statement);
        await work.yieldToConnection();
      } while (next < work.points.length);
      await work.flush();
      this.lap("write");
      await work.commit();
      this.lap("commit");
      known.remember(states, alerts);
      for (const [i, key] of memoryKeys.entries()) {
        this.lastEvaluated.add(key);
        const shard = work.shards[i]!;
        this.latePointsLeft.set(key, work.latePoints[i]! + (latePoints.get(shard) ?? 0));
      }
      return { points: work.points.length, organizationId, shards: work.shards, moreQueued: work.moreQueued };
    } catch (error) {
      // A COMMIT that failed in transit may still have happened: what is remembered can no longer
      // be trusted to match item_states, so the next batch reads them again.
      for (const key of memoryKeys) {
        this.remembered.delete(key);
        this.lastEvaluated.delete(key);
      }
      // The window took the batch's points, which were not committed: the retry loads their series afresh.
      const window = this.windows.of(organizationId);
      for (const point of work.points) {
        const key = config.bySeriesId.get(point.seriesId)?.seriesKey;
        if (key !== undefined) window.forget(key);
      }
      await work.rollback();
      throw error;
    }
  }

  /** Lets the window of the shards' series go, in one walk of what it holds: their next use loads them afresh. */
  private forgetShardWindows(config: OrganizationConfig, shards: ReadonlySet<number>): void {
    const window = this.windows.of(config.organizationId);
    for (const key of window.keys()) {
      const seriesId = config.seriesIdByKey.get(key);
      const shard = seriesId === undefined ? undefined : config.bySeriesId.get(seriesId)?.shard;
      if (shard !== undefined && shards.has(shard)) window.forget(key);
    }
  }

  /** The remembered states when they are current, else an empty memory to fill from the database. */
  private rememberedFor(memoryKey: string, config: OrganizationConfig, current: boolean): ShardMemory {
    const seen = this.remembered.get(memoryKey);
    if (current && seen) {
      if (seen.config !== config) {
        // Items removed from the configuration are forgotten; alert settings may have been edited.
        for (const seriesId of seen.bySeriesId.keys()) if (!config.bySeriesId.has(seriesId)) seen.bySeriesId.delete(seriesId);
        seen.withoutState.clear();
        seen.alerts.clear();
        seen.config = config;
      }
      return seen;
    }
    const fresh = emptyShardMemory(config);
    this.remembered.set(memoryKey, fresh);
    return fresh;
  }

  /**
   * Sorts the points in time order, brings the window up to date and loads the states not in
   * memory (one round trip each, only when needed). Returns the map the slices' new states go
   * into, which the caller remembers once they are committed.
   */
  private async prepare(
    client: Transaction,
    config: OrganizationConfig,
    points: QueuedPoint[],
    known: BatchMemory,
  ): Promise<Map<number, ItemStateRow>> {
    points.sort((a, b) => a.ts - b.ts || a.seriesId - b.seriesId);
    // Each series' instants in the batch, in time order.
    const batchMsBySeries = new Map<number, number[]>();
    for (const p of points) {
      const list = batchMsBySeries.get(p.seriesId);
      if (list) list.push(p.ts);
      else batchMsBySeries.set(p.seriesId, [p.ts]);
    }
    // The series the batch evaluates and those their thresholds read, by key, each with its id
    // (none: no series of the configuration): looked up once here, not again in each step below.
    const wanted = new Map<string, number | undefined>();
    const unknownStates: number[] = [];
    for (const seriesId of batchMsBySeries.keys()) {
      const item = config.bySeriesId.get(seriesId);
      if (!item) continue;
      wanted.set(item.seriesKey, seriesId);
      // Items without a threshold have states too: their plugin's, or stale.
      const reads = config.readsBySeriesId.get(seriesId);
      if (reads !== undefined) for (const key of reads) if (!wanted.has(key)) wanted.set(key, config.seriesIdByKey.get(key));
      if (!known.knowsState(seriesId, item.shard)) unknownStates.push(seriesId);
    }
    this.lap("evaluate");
    const loaded = unknownStates.length
      ? await loadItemStates(client, config.organizationId, unknownStates)
      : new Map<number, ItemStateRow>();
    // Remembered once the batch commits, with the states it writes (which take these out again).
    for (const seriesId of unknownStates) if (!loaded.has(seriesId)) known.hasNoState(seriesId);
    this.lap("load");
    // A series read from the database without being evaluated here — of another shard, or of a
    // held one without points in the batch and not caught up yet (after a start or a takeover) —
    // was read with whatever was stored, possibly past what its own shard has evaluated: once a
    // batch of its own shard evaluates it here, what was read ahead is taken back (evaluation
    // appends it again). What it kept is what its own shard evaluated, plus stored points older
    // than the batch, as a catch-up would leave it: once caught up while this worker is the
    // shard's last evaluator (ShardMemory.caughtUp) it is current, and only older points that the
    // taken-back ones pushed out of a full window are loaded again (SeriesWindow.olderMissing).
    const window = this.windows.of(config.organizationId);
    // The batch's own series, and their shards (two arrays: no pair a series).
    const ownShard: number[] = [];
    const ownShardShards: (number | undefined)[] = [];
    wanted.forEach((seriesId, key) => {
      if (seriesId === undefined) return;
      // Series ids are unique across organisations, keys only within one.
      const shard = config.bySeriesId.get(seriesId)?.shard;
      const evaluatedHere = known.holds(seriesId, shard) && (batchMsBySeries.has(seriesId) || known.isCaughtUp(seriesId, shard));
      if (!evaluatedHere) {
        if (!this.readAhead.has(seriesId)) this.readAhead.set(seriesId, window.newestTs(key) ?? Number.NEGATIVE_INFINITY);
        return;
      }
      ownShard.push(seriesId);
      ownShardShards.push(shard);
      const settled = this.readAhead.get(seriesId);
      // Points are stamped in whole milliseconds: from the next one on was read ahead.
      if (settled !== undefined) window.takeBackFrom(key, settled + 1);
      this.readAhead.delete(seriesId);
    });
    // Each series' history is loaded up to its batch's first point newer than everything it
    // settled (held in the window, or evaluated by the state machine), so that `[0]` is always the
    // point being evaluated. The batch's earlier points are late (older than points already
    // evaluated): they are stored but not evaluated, and their history keeps the points after them.
    // A series without a state whose window is not current (loaded afresh, or last evaluated by
    // another worker) asks the database: one round trip, after a restart or a shard taken over.
    const horizon = Date.now() + MAX_FUTURE_SKEW_MS;
    const headFrom = new Map<number, number>();
    const unsettled: { seriesId: number; lastMs: number; batchMs: number[]; settled: number }[] = [];
    // forEach rather than for…of over entries: no [key, value] array a series (a batch's 6 000 of
    // them showed in the allocation profile).
    batchMsBySeries.forEach((batchMs, seriesId) => {
      const item = config.bySeriesId.get(seriesId);
      const state = loaded.get(seriesId) ?? known.state(seriesId, item?.shard);
      const held = item === undefined ? undefined : window.newestTs(item.seriesKey);
      const settled = Math.max(evaluatedUpTo(state, horizon), held ?? Number.NEGATIVE_INFINITY);
      if (!state && !known.isCaughtUp(seriesId, item?.shard))
        unsettled.push({ seriesId, lastMs: batchMs[batchMs.length - 1]!, batchMs, settled });
      else setHead(headFrom, seriesId, batchMs, settled);
    });
    this.lap("evaluate");
    if (unsettled.length > 0) {
      const stored = await loadSettledBefore(client, unsettled);
      for (const { seriesId, batchMs, settled } of unsettled)
        setHead(headFrom, seriesId, batchMs, Math.max(settled, stored.get(seriesId) ?? Number.NEGATIVE_INFINITY));
    }
    await refreshWindow(client, window, config, wanted, headFrom, (seriesId) => known.isCaughtUp(seriesId));
    // Should the batch fail, the memory goes and these are caught up again.
    for (let i = 0; i < ownShard.length; i++) known.caughtUp(ownShard[i]!, ownShardShards[i]);
    this.lap("load");
    return loaded;
  }

  /**
   * Evaluates points (in time order) one by one from `from`, appending each to the window, until
   * the slice holds `sliceRecords` records or the points end; `states` takes the new states.
   * Returns the records and where the next slice starts.
   */
  private evaluateSlice(
    config: OrganizationConfig,
    points: QueuedPoint[],
    from: number,
    states: Map<number, ItemStateRow>,
    known: BatchMemory,
    /** Counts, by shard, the points put into the window older than its newest (EvaluationCompletion.latePoints). */
    latePoints: Map<number, number>,
  ): { records: EvaluationRecord[]; next: number } {
    const records: EvaluationRecord[] = [];
    // Ingest refuses points from further ahead than this; a state stamped beyond it (stored before
    // it did) must not make every present point look older than the last evaluated one.
    const horizon = Date.now() + MAX_FUTURE_SKEW_MS;
    const window = this.windows.of(config.organizationId);
    let i = from;
    for (; i < points.length && records.length < this.sliceRecords; i++) {
      const point = points[i]!;
      const item = config.bySeriesId.get(point.seriesId);
      if (!item) continue;
      // A result the worker made up for missing data is no data: it stays out of the window.
      const stale = point.status === STALE_STATUS;
      if (!stale && window.add(item.seriesKey, point.ts, point.value)) {
        latePoints.set(item.shard, (latePoints.get(item.shard) ?? 0) + 1);
      }
      const plugin = point.status == null ? null : pluginState(point.status);
      const previous = states.get(point.seriesId) ?? known.state(point.seriesId, item.shard);
      // A point older than the last evaluated one is stored but cannot rewind the state machine
      // (unless that one was stamped in the future).
      if (point.ts <= evaluatedUpTo(previous, horizon)) continue;
      const result =
        item.policy && !stale
          ? evaluateThreshold(item.policy, {
              at: point.ts,
              value: point.value,
              // The item itself is the macros object: the same one every time, so resolved keys are cached.
              context: { data: window, macros: item, unknownSeries: "null" },
            })
          : null;
      // Stale is UNKNOWN whatever the item's state source, and hard at once: the intervals without data were the wait.
      let state = stale ? "UNKNOWN" : itemState(item.stateSource, result?.state ?? null, plugin);
      // An item whose only state came from going stale is OK when data comes again.
      if (state === null && previous) state = "OK";
      if (state === null) continue;
      const track = previous ? { state: previous.state, hardState: previous.hardState, count: previous.softCount } : INITIAL_HARD_STATE;
      // maxSoft 0: hard at once (Bischeck's ServiceState turns hard on the (maxSoft+1)-th problem).
      const step = nextHardState(track, state, stale ? 0 : (item.policy?.maxSoft ?? PLUGIN_MAX_SOFT));
      const changed = !previous || previous.state !== step.state || step.hardChanged;
      records.push(new EvaluatedPoint(point.seriesId, point.ts, point.value, step, result, changed, point.status, point.output));
      states.set(point.seriesId, {
        seriesId: point.seriesId,
        ts: point.ts,
        state: step.state,
        hardState: step.hardState,
        softCount: step.count,
      });
    }
    return { records, next: i };
  }
}

/** The series' first instant in the batch after what it settled, from which its history is not loaded (none: every point is late). */
function setHead(headFrom: Map<number, number>, seriesId: number, batchMs: number[], settled: number): void {
  const head = batchMs.find((ts) => ts > settled);
  if (head !== undefined) headFrom.set(seriesId, head);
}

/**
 * The instant up to which a series' state machine has evaluated: a point at or before it is late
 * (stored, not evaluated). A state stamped past the horizon (stored before ingest refused points
 * from that far ahead) holds nothing back.
 */
function evaluatedUpTo(state: ItemStateRow | undefined, horizon: number): number {
  return state && state.ts <= horizon ? state.ts : Number.NEGATIVE_INFINITY;
}

/** Evaluates until the queue is empty (or `maxBatches` batches ran); returns the points evaluated. */
export async function drainQueue(evaluator: Evaluator, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const { points, moreQueued } = await evaluator.runBatch();
    total += points;
    if (!moreQueued) break;
  }
  return total;
}
