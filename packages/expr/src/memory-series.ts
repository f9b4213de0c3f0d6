import type { SeriesData } from "./series-data.ts";

export interface Point {
  readonly ts: number;
  readonly value: number | null;
}

export interface InMemoryOptions {
  /** Points kept per series; appending beyond it drops the oldest. */
  readonly capacity?: number;
}

const INITIAL_SLOTS = 64;

/**
 * One series as a ring buffer over two typed arrays, stored oldest → newest so that timestamps
 * ascend and every time lookup is a binary search. Null values are kept as NaN.
 */
class Ring {
  ts: Float64Array;
  values: Float64Array;
  /** Physical slot of the oldest point. */
  head = 0;
  size = 0;

  constructor(private readonly capacity: number) {
    const slots = Math.min(INITIAL_SLOTS, capacity);
    this.ts = new Float64Array(slots);
    this.values = new Float64Array(slots);
  }

  /** Physical slot of the logical position i (0 = oldest). */
  slot(i: number): number {
    const s = this.head + i;
    return s < this.ts.length ? s : s - this.ts.length;
  }

  tsAt(i: number): number {
    return this.ts[this.slot(i)] as number;
  }

  valueAt(i: number): number | null {
    const v = this.values[this.slot(i)] as number;
    return Number.isNaN(v) ? null : v;
  }

  insert(ts: number, value: number | null): void {
    const v = value ?? Number.NaN;
    if (this.size > 0 && ts < this.tsAt(this.size - 1)) {
      this.insertInOrder(ts, v);
      return;
    }
    if (this.size === this.ts.length) {
      if (this.size < this.capacity) this.grow();
      else this.dropOldest();
    }
    const s = this.slot(this.size);
    this.ts[s] = ts;
    this.values[s] = v;
    this.size++;
  }

  /** Late points are rare (a collector catching up); shifting keeps the array sorted. */
  private insertInOrder(ts: number, v: number): void {
    if (this.size === this.ts.length && this.size < this.capacity) this.grow();
    let at = this.upperBound(ts);
    if (this.size === this.capacity) {
      // A full buffer drops its oldest point, which is this one when it is older than all others.
      if (at === 0) return;
      this.dropOldest();
      at--;
    }
    for (let i = this.size; i > at; i--) {
      const dst = this.slot(i);
      const src = this.slot(i - 1);
      this.ts[dst] = this.ts[src] as number;
      this.values[dst] = this.values[src] as number;
    }
    const s = this.slot(at);
    this.ts[s] = ts;
    this.values[s] = v;
    this.size++;
  }

  /** Drops the points at or after t; returns how many. */
  dropFrom(t: number): number {
    const keep = this.lowerBound(t);
    const dropped = this.size - keep;
    this.size = keep;
    return dropped;
  }

  private dropOldest(): void {
    this.head = this.slot(1);
    this.size--;
  }

  private grow(): void {
    const slots = Math.min(this.capacity, this.ts.length * 2);
    const ts = new Float64Array(slots);
    const values = new Float64Array(slots);
    for (let i = 0; i < this.size; i++) {
      const s = this.slot(i);
      ts[i] = this.ts[s] as number;
      values[i] = this.values[s] as number;
    }
    this.ts = ts;
    this.values = values;
    this.head = 0;
  }

  /** First logical position whose timestamp is ≥ t. */
  lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tsAt(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First logical position whose timestamp is > t. */
  upperBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.tsAt(mid) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The worker's write-through cache and the test double for SeriesData. Appending in time order is
 * O(1); lookups by time are binary searches (Bischeck 1.1.1's fix for its 15 000-point lists).
 * Time lookups follow Bischeck's cache: see `nearestPosition`.
 */
export class InMemorySeriesData implements SeriesData {
  private readonly series = new Map<string, Ring>();
  private readonly capacity: number;

  constructor(options: InMemoryOptions = {}) {
    this.capacity = Math.max(1, Math.floor(options.capacity ?? 100_000));
  }

  /** Adds one point; points may arrive late, the series stays ordered by timestamp. */
  append(series: string, ts: number, value: number | null): void {
    let ring = this.series.get(series);
    if (ring === undefined) {
      ring = new Ring(this.capacity);
      this.series.set(series, ring);
    }
    ring.insert(ts, value !== null && Number.isFinite(value) ? value : null);
  }

  /** Adds points in any order (sorted input is the fast path). */
  appendMany(series: string, points: Iterable<Point>): void {
    for (const p of points) this.append(series, p.ts, p.value);
  }

  /** Declares a series with no points yet, so that references to it are null rather than unknown. */
  ensure(series: string): void {
    if (!this.series.has(series)) this.series.set(series, new Ring(this.capacity));
  }

  /** Drops the series' points at or after `ts` (a window taking back points read ahead of their evaluation); returns how many. */
  dropFrom(series: string, ts: number): number {
    return this.series.get(series)?.dropFrom(ts) ?? 0;
  }

  /** Whether the series holds a point stamped exactly `ts`. */
  hasPointAt(series: string, ts: number): boolean {
    const ring = this.series.get(series);
    if (ring === undefined) return false;
    const at = ring.lowerBound(ts);
    return at < ring.size && ring.tsAt(at) === ts;
  }

  delete(series: string): void {
    this.series.delete(series);
  }

  size(series: string): number {
    return this.series.get(series)?.size ?? 0;
  }

  keys(): IterableIterator<string> {
    return this.series.keys();
  }

  has(series: string): boolean {
    return this.series.has(series);
  }

  byIndex(series: string, index: number): number | null {
    const ring = this.series.get(series);
    if (ring === undefined || index < 0 || index >= ring.size) return null;
    return ring.valueAt(ring.size - 1 - index);
  }

  byIndexRange(series: string, from: number, to: number): (number | null)[] {
    const ring = this.series.get(series);
    if (ring === undefined || from >= ring.size) return [];
    const last = Math.min(to, ring.size - 1);
    const out: (number | null)[] = new Array(last - from + 1);
    for (let i = from; i <= last; i++) out[i - from] = ring.valueAt(ring.size - 1 - i);
    return out;
  }

  indexAt(series: string, atMs: number): number | null {
    const ring = this.series.get(series);
    if (ring === undefined) return null;
    const position = nearestPosition(ring, atMs);
    return position === null ? null : ring.size - 1 - position;
  }

  nearest(series: string, atMs: number): number | null {
    const ring = this.series.get(series);
    if (ring === undefined) return null;
    const position = nearestPosition(ring, atMs);
    return position === null ? null : ring.valueAt(position);
  }

  timeRange(series: string, fromMs: number | null, toMs: number | null, max = Number.POSITIVE_INFINITY): (number | null)[] {
    const ring = this.series.get(series);
    if (ring === undefined || ring.size === 0) return [];
    const newest = fromMs === null ? ring.size - 1 : nearestPosition(ring, fromMs);
    if (newest === null) return [];
    const oldest = toMs === null ? 0 : (nearestPosition(ring, toMs) ?? 0);
    const count = Math.min(newest - oldest + 1, max + 1);
    if (count <= 0) return [];
    const out: (number | null)[] = new Array(count);
    for (let i = 0; i < count; i++) out[i] = ring.valueAt(newest - i);
    return out;
  }

  pointsByIndexRange(series: string, from: number, to: number): { ts: number[]; values: (number | null)[] } {
    const values = this.byIndexRange(series, from, to);
    const ring = this.series.get(series) as Ring;
    const ts = values.map((_, i) => ring.tsAt(ring.size - 1 - from - i));
    return { ts, values };
  }
}

/**
 * Bischeck's nearestByIndex (LastStatusCache): the logical position of the point nearest to `t`,
 * null when `t` is newer than the newest point or older than the oldest; a tie between the points
 * before and after goes to the older one, and among equal timestamps the last appended counts.
 */
function nearestPosition(ring: Ring, t: number): number | null {
  if (ring.size === 0 || t > ring.tsAt(ring.size - 1) || t < ring.tsAt(0)) return null;
  const next = ring.lowerBound(t);
  const exact = ring.tsAt(next) === t;
  if (exact) return ring.upperBound(t) - 1;
  const before = next - 1;
  return t - ring.tsAt(before) <= ring.tsAt(next) - t ? before : next;
}
