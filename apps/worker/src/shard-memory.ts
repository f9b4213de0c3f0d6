import type { AlertMemoryLookup, SeriesAlertMemory } from "@tidemark/alerts";
import type { ItemStateRow } from "@tidemark/db/evaluation";
import type { OrganizationConfig } from "./organization-cache.ts";

/** The committed state machines of an organisation's shard this worker evaluated last. */
export interface ShardMemory {
  config: OrganizationConfig;
  bySeriesId: Map<number, ItemStateRow>;
  /**
   * Series read from item_states and found without a row (items without a threshold or plugin
   * status have none): only this shard's evaluator writes one, so while the memory is current
   * they are not asked for again at every batch.
   */
  withoutState: Set<number>;
  alerts: Map<number, SeriesAlertMemory>;
  /**
   * Series of the shard whose window this memory caught up with the database: they are current
   * while it is. The window outlives the memory (it is the organisation's), so a series this
   * worker held before another worker evaluated the shard is caught up again at its first batch
   * after the worker takes the shard back, whichever batch took it back.
   */
  caughtUp: Set<number>;
}

/** A memory with nothing in it yet, to fill from the database. */
export function emptyShardMemory(config: OrganizationConfig): ShardMemory {
  return { config, bySeriesId: new Map(), withoutState: new Set(), alerts: new Map(), caughtUp: new Set() };
}

/**
 * The memories of the shards one batch holds, seen as one: each series goes to its own shard's.
 * A series of a shard the batch does not hold has no memory here (no state known, not caught up):
 * another worker may be evaluating it.
 */
export class BatchMemory {
  constructor(
    private readonly byShard: ReadonlyMap<number, ShardMemory>,
    /** The configuration the batch evaluates by: it knows each item's series' shard. */
    private readonly config: OrganizationConfig,
  ) {}

  /** The alert memory of the batch's series from earlier batches. */
  readonly alerts: AlertMemoryLookup = {
    get: (seriesId) => this.of(seriesId)?.alerts.get(seriesId),
    has: (seriesId) => this.of(seriesId)?.alerts.has(seriesId) ?? false,
  };

  /**
   * The series' shard's memory. Every method takes the series' `shard` from a caller that has its
   * item in hand: at 30 000 jobs the look-up in the configuration's map of every series, made
   * several times a point, was the evaluation's largest self time (issue 22, twenty-sixth round).
   */
  private of(seriesId: number, shard = this.config.bySeriesId.get(seriesId)?.shard): ShardMemory | undefined {
    return shard === undefined ? undefined : this.byShard.get(shard);
  }

  /** Whether the series' shard is one of the batch's (a series of no item is no shard's). */
  holds(seriesId: number, shard?: number): boolean {
    return this.of(seriesId, shard) !== undefined;
  }

  state(seriesId: number, shard?: number): ItemStateRow | undefined {
    return this.of(seriesId, shard)?.bySeriesId.get(seriesId);
  }

  /** Whether the series' state (or its absence) is remembered: then item_states is not asked. */
  knowsState(seriesId: number, shard?: number): boolean {
    const memory = this.of(seriesId, shard);
    return memory !== undefined && (memory.bySeriesId.has(seriesId) || memory.withoutState.has(seriesId));
  }

  /** Remembers that the series has no state row (until the batch writes one). */
  hasNoState(seriesId: number): void {
    this.of(seriesId)?.withoutState.add(seriesId);
  }

  isCaughtUp(seriesId: number, shard?: number): boolean {
    return this.of(seriesId, shard)?.caughtUp.has(seriesId) ?? false;
  }

  caughtUp(seriesId: number, shard?: number): void {
    this.of(seriesId, shard)?.caughtUp.add(seriesId);
  }

  /** Keeps what a committed batch wrote. */
  remember(states: ReadonlyMap<number, ItemStateRow>, alerts: ReadonlyMap<number, SeriesAlertMemory>): void {
    states.forEach((state, seriesId) => {
      const memory = this.of(seriesId);
      memory?.bySeriesId.set(seriesId, state);
      memory?.withoutState.delete(seriesId);
    });
    alerts.forEach((alert, seriesId) => {
      this.of(seriesId)?.alerts.set(seriesId, alert);
    });
  }
}
