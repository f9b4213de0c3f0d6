import { describe, expect, it } from "vitest";
import { capacityFor, SeriesWindow } from "../../src/series-window.ts";

const KEY = "h-s-q";
const need = { count: 15, lookbackMs: 0, toOldest: false };
const CAPACITY = capacityFor(need);

/** A window holding points at 1…n (value = instant). */
function windowWith(n: number): SeriesWindow {
  const window = new SeriesWindow();
  window.hold(KEY, need);
  for (let ts = 1; ts <= n; ts++) window.add(KEY, ts, ts);
  return window;
}

describe("SeriesWindow.takeBackFrom", () => {
  it.each([
    // [points held, taken back from, newest kept, older points the next load fetches]
    { held: 5, from: 4, newest: 3, olderMissing: null },
    { held: 5, from: 9, newest: 5, olderMissing: null },
    { held: CAPACITY + 4, from: CAPACITY + 2, newest: CAPACITY + 1, olderMissing: { count: 3, beforeTs: 5 } },
    // Emptied: the next load takes the newest points afresh, so nothing older is missing.
    { held: CAPACITY + 4, from: 1, newest: Number.NEGATIVE_INFINITY, olderMissing: null },
  ])("holding $held points, from $from keeps up to $newest and asks for $olderMissing older", ({ held, from, newest, olderMissing }) => {
    const window = windowWith(held);
    window.takeBackFrom(KEY, from);
    expect(window.newestTs(KEY)).toBe(newest);
    expect(window.olderMissing(KEY)).toEqual(olderMissing);
  });

  it("a window emptied and loaded afresh asks for nothing older", () => {
    const window = windowWith(CAPACITY + 4);
    window.takeBackFrom(KEY, 1);
    for (let ts = 100; ts < 103; ts++) window.add(KEY, ts, ts);
    expect(window.olderMissing(KEY)).toBeNull();
    expect(window.pointsByIndexRange(KEY, 0, 5).ts).toEqual([102, 101, 100]);
  });
});

describe("SeriesWindow.add", () => {
  it.each([
    { ts: 6, late: false, newest: 6 },
    // Held already (the window's newest, or an older one loaded before): not added again.
    { ts: 5, late: false, newest: 5 },
    { ts: 3, late: true, newest: 5 },
    { ts: 2.5, late: true, newest: 5 },
  ])("a point at $ts is late: $late", ({ ts, late, newest }) => {
    const window = windowWith(5);
    expect(window.add(KEY, ts, ts)).toBe(late);
    expect(window.newestTs(KEY)).toBe(newest);
  });

  it("a series not held takes nothing and is not late", () => {
    expect(new SeriesWindow().add(KEY, 1, 1)).toBe(false);
  });
});
