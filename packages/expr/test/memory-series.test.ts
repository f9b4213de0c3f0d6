import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InMemorySeriesData } from "../src/index.ts";

/** The obvious, slow model the ring buffer must agree with. */
class Naive {
  points: { ts: number; value: number | null }[] = [];
  constructor(private readonly capacity: number) {}
  append(ts: number, value: number | null) {
    const at = this.points.findIndex((p) => p.ts > ts);
    if (at === -1) this.points.push({ ts, value });
    else this.points.splice(at, 0, { ts, value });
    if (this.points.length > this.capacity) this.points.shift();
  }
  dropFrom(ts: number) {
    const before = this.points.length;
    this.points = this.points.filter((p) => p.ts < ts);
    return before - this.points.length;
  }
  byIndex(i: number) {
    return this.points[this.points.length - 1 - i]?.value ?? null;
  }
  /** Bischeck's nearest index: null outside the history; ties go to the older point; equal timestamps to the last appended. */
  nearestPosition(at: number): number | null {
    const n = this.points.length;
    if (n === 0 || at > (this.points[n - 1] as { ts: number }).ts || at < (this.points[0] as { ts: number }).ts) return null;
    let best = 0;
    this.points.forEach((p, i) => {
      const b = this.points[best] as { ts: number };
      const d = Math.abs(p.ts - at);
      const bd = Math.abs(b.ts - at);
      if (d < bd || (d === bd && p.ts === b.ts && p.ts <= at)) best = i;
    });
    return best;
  }
  nearest(at: number) {
    const i = this.nearestPosition(at);
    return i === null ? null : (this.points[i]?.value ?? null);
  }
  timeRange(from: number | null, to: number | null) {
    const newest = from === null ? this.points.length - 1 : this.nearestPosition(from);
    if (newest === null) return [];
    const oldest = to === null ? 0 : (this.nearestPosition(to) ?? 0);
    return this.points
      .slice(oldest, newest + 1)
      .map((p) => p.value)
      .reverse();
  }
}

describe("InMemorySeriesData", () => {
  it("indexes newest first; an index range holds only the points that exist", () => {
    const d = new InMemorySeriesData();
    d.appendMany("s", [
      { ts: 1, value: 10 },
      { ts: 2, value: null },
      { ts: 3, value: 30 },
    ]);
    expect([d.byIndex("s", 0), d.byIndex("s", 1), d.byIndex("s", 2), d.byIndex("s", 3)]).toEqual([30, null, 10, null]);
    expect(d.byIndexRange("s", 1, 4)).toEqual([null, 10]);
    expect(d.byIndexRange("nope", 0, 1)).toEqual([]);
    expect(d.size("s")).toBe(3);
  });

  it("drops the oldest points beyond its capacity", () => {
    const d = new InMemorySeriesData({ capacity: 3 });
    for (let i = 1; i <= 10; i++) d.append("s", i, i);
    expect(d.byIndexRange("s", 0, 3)).toEqual([10, 9, 8]);
    expect(d.timeRange("s", null, null)).toEqual([10, 9, 8]);
    d.append("s", 0, 0); // older than everything kept: dropped at once
    expect(d.timeRange("s", null, null)).toEqual([10, 9, 8]);
    d.append("s", 8.5, 85);
    expect(d.timeRange("s", null, null)).toEqual([10, 9, 85]);
  });

  it("agrees with a naive model under random appends, late points and lookups", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.option(fc.integer({ min: -50, max: 50 }), { nil: null })), {
          maxLength: 120,
        }),
        fc.array(fc.tuple(fc.integer({ min: -10, max: 210 }), fc.integer({ min: -10, max: 210 }), fc.integer({ min: 0, max: 50 }))),
        (capacity, appends, queries) => {
          const d = new InMemorySeriesData({ capacity });
          const model = new Naive(capacity);
          for (const [ts, value] of appends) {
            d.append("s", ts, value);
            model.append(ts, value);
          }
          for (const [a, b, index] of queries) {
            const [from, to] = a >= b ? [a, b] : [b, a];
            expect(d.byIndex("s", index)).toBe(model.byIndex(index));
            expect(d.timeRange("s", from, to)).toEqual(model.timeRange(from, to));
            expect(d.timeRange("s", from, null)).toEqual(model.timeRange(from, null));
            expect(d.timeRange("s", null, to)).toEqual(model.timeRange(null, to));
            if (appends.length > 0) expect(d.nearest("s", a)).toBe(model.nearest(a));
          }
        },
      ),
    );
  });

  it("drops the points from a time on, and keeps agreeing with the model through later appends", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 200 })), { maxLength: 120 }),
        (capacity, operations) => {
          const d = new InMemorySeriesData({ capacity });
          const model = new Naive(capacity);
          for (const [drop, ts] of operations) {
            if (drop) expect(d.dropFrom("s", ts)).toBe(model.dropFrom(ts));
            else {
              d.append("s", ts, ts);
              model.append(ts, ts);
            }
            expect(d.timeRange("s", null, null)).toEqual(model.timeRange(null, null));
            expect(d.hasPointAt("s", ts)).toBe(model.points.some((p) => p.ts === ts));
          }
        },
      ),
    );
  });

  it("stops a time range after max + 1 values", () => {
    const d = new InMemorySeriesData();
    for (let i = 0; i < 1000; i++) d.append("s", i, i);
    expect(d.timeRange("s", 999, null, 10)).toHaveLength(11);
  });

  // Bischeck's LastStatusCache.nearestByIndex (CacheTest): a time maps to the nearest index.
  it.each<[number, number | null, string]>([
    [25, 20, "nearest"],
    [35, null, "a tie between 30 and 40 goes to the older point (30 is null here)"],
    [36, 40, "nearest"],
    [50, 50, "exact"],
    [51, null, "newer than the newest point"],
    [9, null, "older than the oldest point"],
  ])("nearest(%s) = %s: %s", (at, expected) => {
    const d = new InMemorySeriesData();
    d.appendMany("s", [
      { ts: 10, value: 10 },
      { ts: 20, value: 20 },
      { ts: 30, value: null },
      { ts: 40, value: 40 },
      { ts: 50, value: 50 },
    ]);
    expect(d.nearest("s", at)).toBe(expected);
  });

  it("stores non-finite values as null", () => {
    const d = new InMemorySeriesData();
    d.append("s", 1, Number.NaN);
    d.append("s", 2, Number.POSITIVE_INFINITY);
    expect(d.byIndexRange("s", 0, 1)).toEqual([null, null]);
  });
});
