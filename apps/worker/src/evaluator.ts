import {
  claimEvaluationWork,
  completeEvaluationWork,
  type Database,
  deferEvaluationWork,
  type EvaluationRecord,
  evaluatedLastBy,
  loadItemStates,
  type QueuedPoint,
  writeEvaluations,
} from "@tidemark/db";
import { evaluateThreshold, INITIAL_HARD_STATE, nextHardState } from "@tidemark/thresholds";
import type pg from "pg";
import type { OrganizationCache, OrganizationConfig } from "./organization-cache.ts";
import type { SeriesWindow } from "./series-window.ts";
import { refreshWindow } from "./window-loader.ts";

export interface EvaluationHooks {
  /** Called inside the evaluation's transaction with what was evaluated (alerts are raised here). */
  afterEvaluate?: (client: pg.ClientBase, organizationId: string, records: EvaluationRecord[], config: OrganizationConfig) => Promise<void>;
}

export interface BatchResult {
  points: number;
  organizationId: string | null;
}

/**
 * Takes queued points (from agents and calculations), evaluates each against its item's
 * threshold policy in time order, and writes states and state changes — in one transaction
 * with the claim, so that every queued point is evaluated exactly once across workers, and a
 * worker killed mid-way leaves its claim for another.
 */
export class Evaluator {
  /** Identifies this evaluator's in-memory window in evaluation_cursors. */
  private readonly id = `${process.pid}-${crypto.randomUUID()}`;

  constructor(
    private readonly db: Database,
    private readonly organizations: OrganizationCache,
    private readonly window: SeriesWindow,
    private readonly hooks: EvaluationHooks = {},
    private readonly maxQueueRows = 200,
  ) {}

  async runBatch(): Promise<BatchResult> {
    // The configuration is read before the transaction: on the embedded server an open
    // transaction blocks every other connection, including the pool the cache reads with.
    const next = await this.db.pool.query<{ organization_id: string }>(
      `SELECT organization_id FROM evaluation_queue WHERE claimed_until IS NULL OR claimed_until < now() ORDER BY id LIMIT 1`,
    );
    const organizationId = next.rows[0]?.organization_id;
    if (!organizationId) return { points: 0, organizationId: null };
    const config = await this.organizations.get(organizationId);

    const client = await this.db.pool.connect();
    let claimedIds: number[] = [];
    try {
      await client.query("BEGIN");
      const work = await claimEvaluationWork(client, organizationId, this.maxQueueRows);
      if (!work) {
        await client.query("ROLLBACK");
        return { points: 0, organizationId: null };
      }
      claimedIds = work.ids;
      const current = await evaluatedLastBy(client, organizationId, this.id);
      const records = await this.evaluate(client, config, work.points, current);
      await writeEvaluations(client, records);
      await this.hooks.afterEvaluate?.(client, organizationId, records, config);
      await completeEvaluationWork(client, organizationId, this.id, work.ids);
      await client.query("COMMIT");
      return { points: work.points.length, organizationId };
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      if (claimedIds.length) await deferEvaluationWork(this.db, claimedIds);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Loads what the batch's thresholds read, in one round trip, then evaluates point by point. */
  private async evaluate(client: pg.ClientBase, config: OrganizationConfig, points: QueuedPoint[], windowIsCurrent: boolean): Promise<EvaluationRecord[]> {
    points.sort((a, b) => a.ts - b.ts || a.seriesId - b.seriesId);
    const firstInBatch = new Map<number, number>();
    for (const p of points) if (!firstInBatch.has(p.seriesId)) firstInBatch.set(p.seriesId, p.ts);
    const wanted = new Set<string>();
    for (const seriesId of firstInBatch.keys()) {
      const item = config.bySeriesId.get(seriesId);
      if (!item) continue;
      wanted.add(item.seriesKey);
      for (const key of config.readsBySeriesId.get(seriesId) ?? []) wanted.add(key);
    }
    await refreshWindow(client, this.window, config, wanted, firstInBatch, windowIsCurrent);

    const states = await loadItemStates(client, [...firstInBatch.keys()]);
    const records: EvaluationRecord[] = [];
    for (const point of points) {
      const item = config.bySeriesId.get(point.seriesId);
      if (!item) continue;
      this.window.append(item.seriesKey, point.ts, point.value);
      if (!item.policy) continue;
      const previous = states.get(point.seriesId);
      // A point older than the last evaluated one is stored but cannot rewind the state machine.
      if (previous && point.ts <= previous.ts) continue;
      const result = evaluateThreshold(item.policy, {
        at: point.ts,
        value: point.value,
        context: { data: this.window, macros: { host: item.host, service: item.service, item: item.item }, unknownSeries: "null" },
      });
      const track = previous ? { state: previous.state, hardState: previous.hardState, count: previous.softCount } : INITIAL_HARD_STATE;
      const step = nextHardState(track, result.state, item.policy.maxSoft);
      records.push({
        seriesId: point.seriesId,
        ts: point.ts,
        state: step.state,
        hardState: step.hardState,
        softCount: step.count,
        hard: step.hardChanged,
        value: point.value,
        threshold: result.threshold,
        warning: result.warning,
        critical: result.critical,
        explanation: result.explanation,
        changed: !previous || previous.state !== step.state || step.hardChanged,
      });
      states.set(point.seriesId, { seriesId: point.seriesId, ts: point.ts, state: step.state, hardState: step.hardState, softCount: step.count });
    }
    return records;
  }
}

/** Evaluates until the queue is empty (or `maxBatches` batches ran); returns the points evaluated. */
export async function drainQueue(evaluator: Evaluator, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const { points, organizationId } = await evaluator.runBatch();
    if (!organizationId) break;
    total += points;
  }
  return total;
}
