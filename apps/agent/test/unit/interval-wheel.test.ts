import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IntervalWheel } from "../../src/interval-wheel.ts";

/** The wheel reads performance.now(); the test owns that clock and fires the tick timer by hand. */
let clock = 0;
beforeEach(() => {
  clock = 0;
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  vi.spyOn(performance, "now").mockImplementation(() => clock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Moves the clock to `ms` and lets the tick timer fire once. */
function tickAt(ms: number) {
  clock = ms;
  vi.advanceTimersToNextTimer();
}

/** A wheel with item "a" due every second from 0; `runs()` counts its runs so far. */
function wheelRunningOneItemEverySecond() {
  let count = 0;
  const wheel = new IntervalWheel<string>(() => count++);
  wheel.add("a", 1000, 0);
  return { wheel, runs: () => count };
}

describe("IntervalWheel", () => {
  it("runs each item every period from its first offset, items due in the same second together", () => {
    const runs: string[] = [];
    const wheel = new IntervalWheel<string>((item) => runs.push(`${item}@${clock / 1000}`));
    wheel.add("a", 3000, 1200);
    wheel.add("b", 2000, 1900);
    expect(wheel.size).toBe(2);
    for (let s = 1; s <= 6; s++) tickAt(s * 1000);
    expect(runs).toEqual(["a@2", "b@2", "b@4", "a@5", "b@6"]);
  });

  it("runs an item once, late, after the loop was blocked for several of its periods", () => {
    const { runs } = wheelRunningOneItemEverySecond();
    tickAt(1000);
    expect(runs()).toBe(1);
    tickAt(4600);
    expect(runs()).toBe(2);
    tickAt(5000);
    expect(runs()).toBe(2);
    tickAt(6000);
    expect(runs()).toBe(3);
  });

  it("counts a tick whose timer fires a hair before the precise clock says a second has passed", () => {
    const { runs } = wheelRunningOneItemEverySecond();
    tickAt(999.6);
    expect(runs()).toBe(1);
  });

  it("forgets every item and its timer when cleared", () => {
    const { wheel, runs } = wheelRunningOneItemEverySecond();
    expect(vi.getTimerCount()).toBe(1);
    wheel.clear();
    expect(wheel.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    wheel.add("b", 5000, 0);
    tickAt(1000);
    expect(runs()).toBe(1);
  });
});
