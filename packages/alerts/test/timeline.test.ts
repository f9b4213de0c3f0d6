import { describe, expect, it } from "vitest";
import { decodeTimeline, encodeTimeline, type Timeline } from "../src/index.ts";

describe("the timeline's wire form", () => {
  const timeline: Timeline = {
    truncated: true,
    lanes: [{ seriesId: 7, key: "web\\-1-http-latency", host: "web-1", service: "http", item: "latency" }],
    alerts: [
      {
        id: "a",
        seriesId: 7,
        severity: "WARNING",
        peakSeverity: "CRITICAL",
        openedAt: 1_000_500,
        closedAt: null,
        acknowledged: true,
        flapping: false,
      },
      {
        id: "b",
        seriesId: 7,
        severity: "UNKNOWN",
        peakSeverity: "UNKNOWN",
        openedAt: 999_000,
        closedAt: 1_000_100,
        acknowledged: false,
        flapping: true,
      },
    ],
    changes: [
      { seriesId: 7, ts: 998_000, state: "OK", hard: true },
      { seriesId: 7, ts: 999_000, state: "CRITICAL", hard: false },
    ],
  };

  it("decodes to what was encoded, times before the base included", () => {
    expect(decodeTimeline(encodeTimeline(timeline, 1_000_000))).toEqual(timeline);
  });

  it("is smaller than the plain JSON of the same timeline", () => {
    const many: Timeline = {
      ...timeline,
      alerts: Array.from({ length: 1000 }, (_, i) => ({
        ...timeline.alerts[0]!,
        id: crypto.randomUUID(),
        openedAt: 1_000_000 + i * 60_000,
      })),
    };
    expect(encodeTimeline(many, 1_000_000).length).toBeLessThan(JSON.stringify(many).length * 0.5);
  });
});
