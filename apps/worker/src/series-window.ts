import { InMemorySeriesData, type SeriesData } from "@tidemark/expr";
import type { HistoryNeed } from "./history-needs.ts";

/**
 * The worker's write-through window of recent points (Bischeck's fast cache): each series keeps
 * as many newest points as the expressions that read it need, so evaluating a threshold reads
 * memory, not the database. Points arrive in time order per series; older arrivals are already
 * in the database and are not added.
 */

/** Enough for a day of one point per second; expressions reaching further read what is held. */
export const MAX_POINTS_PER_SERIES = 100_000;
/** Point spacing assumed for a series whose schedule does not tell it (1 s is Bischeck's densest). */
const ASSUMED_INTERVAL_MS = 1000;

export function capacityFor(need: HistoryNeed): number {
  if (need.toOldest) return MAX_POINTS_PER_SERIES;
  // A quarter more than the schedule implies, for jitter and catch-up bursts.
  const byTime = Math.ceil((need.lookbackMs / (need.intervalMs ?? ASSUMED_INTERVAL_MS)) * 1.25) + 2;
  return Math.min(MAX_POINTS_PER_SERIES, Math.max(16, need.count + 1, need.lookbackMs > 0 ? byTime : 0));
}

interface Held {
  data: InMemorySeriesData;
  newestTs: number;
  need: HistoryNeed;
  /** Points older than the oldest held that a full window would hold (pushed out by points since taken back): the next load fetches them. */
  olderMissing: number;
}

/** Appends a point newer than the newest held (both `add` and `append` have the series in hand: no second look-up). */
function appendNewest(h: Held, key: string, ts: number, value: number | null): void {
  h.data.append(key, ts, value);
  h.newestTs = ts;
}

export class SeriesWindow implements SeriesData {
  private readonly held = new Map<string, Held>();

  /** Whether the series has been loaded (else the caller loads it before evaluating). */
  isLoaded(key: string): boolean {
    return this.held.has(key);
  }

  /** The keys of the series held. */
  keys(): IterableIterator<string> {
    return this.held.keys();
  }

  newestTs(key: string): number | undefined {
    return this.held.get(key)?.newestTs;
  }

  /**
   * Holds a series with at least this need. Returns true when it starts empty (first use, or a
   * larger need than before): the caller then loads its history.
   */
  hold(key: string, need: HistoryNeed): boolean {
    const seen = this.held.get(key);
    // The same need object as before (an unchanged configuration): nothing to compare.
    if (seen?.need === need) return false;
    if (
      seen &&
      capacityFor(seen.need) >= capacityFor(need) &&
      seen.need.lookbackMs >= need.lookbackMs &&
      (seen.need.toOldest || !need.toOldest)
    ) {
      return false;
    }
    const data = new InMemorySeriesData({ capacity: capacityFor(need) });
    data.ensure(key);
    this.held.set(key, { data, newestTs: Number.NEGATIVE_INFINITY, need, olderMissing: 0 });
    return true;
  }

  /**
   * Takes back the series' points at or after `fromTs` (read ahead of their evaluation), keeping
   * the rest: the caller then loads what follows the newest kept point and `olderMissing` before
   * the oldest, so that the window holds what a load afresh would, without reading it all again.
   */
  takeBackFrom(key: string, fromTs: number): void {
    const h = this.held.get(key);
    if (!h) return;
    const full = h.data.size(key) >= capacityFor(h.need);
    const dropped = h.data.dropFrom(key, fromTs);
    if (dropped === 0) return;
    // A full ring may have pushed older points out to make room for those now dropped.
    if (full) h.olderMissing += dropped;
    const size = h.data.size(key);
    h.newestTs = size === 0 ? Number.NEGATIVE_INFINITY : h.data.pointsByIndexRange(key, 0, 0).ts[0]!;
    // An emptied window loads its newest points afresh: nothing older is missing from it.
    if (size === 0) h.olderMissing = 0;
  }

  /** Lets the series go: its next use loads it afresh. */
  forget(key: string): void {
    this.held.delete(key);
  }

  /** How many points before the oldest held the next load fetches, and the oldest held's timestamp (see takeBackFrom). */
  olderMissing(key: string): { count: number; beforeTs: number } | null {
    const h = this.held.get(key);
    const size = h?.data.size(key) ?? 0;
    if (!h || h.olderMissing === 0 || size === 0) return null;
    return { count: h.olderMissing, beforeTs: h.data.pointsByIndexRange(key, size - 1, size - 1).ts[0]! };
  }

  /** The points olderMissing asked for are loaded (all there were). */
  olderLoaded(key: string): void {
    const h = this.held.get(key);
    if (h) h.olderMissing = 0;
  }

  /**
   * Adds a point, loaded or evaluated. A point newer than the newest held is appended; an older
   * one — loaded before the oldest (what olderMissing asked for), or evaluated late (stored after
   * newer ones) — takes its place in time order unless it is held already, so that the window
   * holds what a load afresh would. Returns whether the point is older than the newest held: a
   * late point, which another worker's catch-up (by instant) would not find.
   */
  add(key: string, ts: number, value: number | null): boolean {
    const h = this.held.get(key);
    if (!h) return false;
    if (ts > h.newestTs) {
      appendNewest(h, key, ts, value);
      return false;
    }
    if (!h.data.hasPointAt(key, ts)) h.data.append(key, ts, value);
    return ts < h.newestTs;
  }

  append(key: string, ts: number, value: number | null): void {
    const h = this.held.get(key);
    if (h && ts > h.newestTs) appendNewest(h, key, ts, value);
  }

  /** Total points held, for the worker's metrics. */
  pointCount(): number {
    let n = 0;
    for (const [key, h] of this.held) n += h.data.size(key);
    return n;
  }

  has(series: string): boolean {
    return this.held.has(series);
  }

  byIndex(series: string, index: number): number | null {
    return this.held.get(series)?.data.byIndex(series, index) ?? null;
  }

  byIndexRange(series: string, from: number, to: number): readonly (number | null)[] {
    return this.held.get(series)?.data.byIndexRange(series, from, to) ?? [];
  }

  indexAt(series: string, atMs: number): number | null {
    return this.held.get(series)?.data.indexAt(series, atMs) ?? null;
  }

  pointsByIndexRange(series: string, from: number, to: number): { ts: number[]; values: (number | null)[] } {
    return this.held.get(series)?.data.pointsByIndexRange(series, from, to) ?? { ts: [], values: [] };
  }

  nearest(series: string, atMs: number): number | null {
    return this.held.get(series)?.data.nearest(series, atMs) ?? null;
  }

  timeRange(series: string, fromMs: number | null, toMs: number | null, max?: number): readonly (number | null)[] {
    return this.held.get(series)?.data.timeRange(series, fromMs, toMs, max) ?? [];
  }
}

/**
 * Series keys are unique only within an organisation (two organisations may both have
 * `web01-cpu-load`), so each organisation's expressions read a window of their own: one worker's
 * windows, by organisation.
 */
export class OrganizationWindows {
  private readonly windows = new Map<string, SeriesWindow>();

  of(organizationId: string): SeriesWindow {
    let window = this.windows.get(organizationId);
    if (!window) {
      window = new SeriesWindow();
      this.windows.set(organizationId, window);
    }
    return window;
  }

  pointCount(): number {
    let n = 0;
    for (const window of this.windows.values()) n += window.pointCount();
    return n;
  }
}
