import { describe, expect, it } from "vitest";
import { decodeTimeline, encodeTimeline, stateOfLetter, type Timeline } from "../src/index.ts";

describe("the timeline's wire form", () => {
  const timeline: Timeline = {
    truncated: true,
    lanes: [
      { seriesId: 7, key: "web\\-1-http-latency", host: "web-1", service: "http", item: "latency" },
      { seriesId: 3, key: "db1-pg-lag", host: "db1", service: "pg", item: "lag" },
    ],
    alerts: [
      {
        id: "0b7c1c2e-8a4f-4e43-9c55-5b1d3d0f7a10",
        seriesId: 7,
        severity: "WARNING",
        peakSeverity: "CRITICAL",
        openedAt: 1_000_500,
        closedAt: null,
        acknowledged: true,
        flapping: false,
      },
      {
        id: "ffffffff-0000-4000-8000-00000000000a",
        seriesId: 3,
        severity: "UNKNOWN",
        peakSeverity: "UNKNOWN",
        openedAt: 999_000,
        closedAt: 1_000_100,
        acknowledged: true,
        flapping: true,
      },
      {
        id: "00000000-0000-4000-8000-000000000000",
        seriesId: 7,
        severity: "CRITICAL",
        peakSeverity: "CRITICAL",
        openedAt: 999_000,
        closedAt: 999_000,
        acknowledged: false,
        flapping: false,
      },
    ],
    changes: [
      { seriesId: 7, ts: 998_000, state: "OK", hard: true },
      { seriesId: 7, ts: 999_000, state: "CRITICAL", hard: false },
      { seriesId: 7, ts: 1_000_500, state: "WARNING", hard: true },
      { seriesId: 3, ts: 999_000, state: "UNKNOWN", hard: true },
    ],
  };

  it("decodes to what was encoded, times before the base included", () => {
    expect(decodeTimeline(encodeTimeline(timeline, 1_000_000))).toEqual(timeline);
  });

  it("hands the changes back by lane, in the lanes' order, and by time within a lane", () => {
    const shuffled = {
      ...timeline,
      changes: [timeline.changes[3], timeline.changes[2], timeline.changes[0], timeline.changes[1]],
    } as Timeline;
    expect(decodeTimeline(encodeTimeline(shuffled, 1_000_000)).changes).toEqual(timeline.changes);
  });

  it("decodes an empty timeline", () => {
    const empty: Timeline = { truncated: false, lanes: [], alerts: [], changes: [] };
    expect(decodeTimeline(encodeTimeline(empty, 5))).toEqual(empty);
  });

  it("refuses a series without a lane", () => {
    const stray = { ...timeline, changes: [{ seriesId: 99, ts: 0, state: "OK" as const, hard: true }] };
    expect(() => encodeTimeline(stray, 0)).toThrow(/series 99 has no lane/);
  });

  it("is less than half the plain JSON of the same timeline", () => {
    const many: Timeline = {
      ...timeline,
      alerts: Array.from({ length: 1000 }, (_, i) => ({
        ...timeline.alerts[1]!,
        id: crypto.randomUUID(),
        openedAt: 1_000_000 - i * 60_000,
        closedAt: 1_000_000 - i * 60_000 + 30_000,
      })),
      changes: Array.from({ length: 3000 }, (_, i) => ({ seriesId: 3, ts: 1_000_000 + i * 20_000, state: "OK" as const, hard: true })),
    };
    expect(decodeTimeline(encodeTimeline(many, 1_000_000))).toEqual(many);
    expect(encodeTimeline(many, 1_000_000).length).toBeLessThan(JSON.stringify(many).length * 0.5);
  });
});

describe("states as letters", () => {
  it("reads each state's first letter and refuses any other", () => {
    expect(["O", "W", "C", "U"].map(stateOfLetter)).toEqual(["OK", "WARNING", "CRITICAL", "UNKNOWN"]);
    expect(() => stateOfLetter("X")).toThrow(/no state is written "X"/);
    expect(() => stateOfLetter("")).toThrow();
  });
});
