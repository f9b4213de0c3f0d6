import { describe, expect, it } from "vitest";
import { alertAt, type LayoutInput, layoutTimeline } from "../../../src/components/alerts/timeline-layout";

const lane = (seriesId: number, host: string, service: string, item: string) => ({
  seriesId,
  key: `${host}-${service}-${item}`,
  host,
  service,
  item,
});
const alert = (id: string, seriesId: number, openedAt: number, closedAt: number | null, peak: "WARNING" | "CRITICAL" = "CRITICAL") => ({
  id,
  seriesId,
  severity: peak,
  peakSeverity: peak,
  openedAt,
  closedAt,
  acknowledged: false,
  flapping: false,
});

describe("timeline layout", () => {
  const window = { from: 0, to: 1000 };

  it("keeps the lanes in the order they come (the server's) and marks where a host starts", () => {
    const input: LayoutInput = {
      lanes: [lane(2, "web01", "http", "b"), lane(1, "web01", "http", "a"), lane(3, "db01", "pg", "lag")],
      alerts: [],
      changes: [],
    };
    const lanes = layoutTimeline(input, window, 100, 1000);
    expect(lanes.map((l) => [l.key, l.firstOfHost])).toEqual([
      ["web01-http-b", true],
      ["web01-http-a", false],
      ["db01-pg-lag", true],
    ]);
  });

  it("places alerts in pixels, runs open ones to now, and gives short ones a visible width", () => {
    const input: LayoutInput = {
      lanes: [lane(1, "h", "s", "i")],
      alerts: [alert("a", 1, 100, 200), alert("b", 1, 500, null), alert("c", 1, 900, 901, "WARNING")],
      changes: [],
    };
    const [l] = layoutTimeline(input, window, 100, 800);
    expect(l!.bars.map((b) => [b.alertId, b.x0, b.x1])).toEqual([
      ["a", 10, 20],
      ["b", 50, 80],
      ["c", 90, 92],
    ]);
    expect(alertAt(l!, 15)).toBe("a");
    expect(alertAt(l!, 22)).toBe("a");
    expect(alertAt(l!, 30)).toBeNull();
  });

  it("merges alerts that fall in the same pixels and state bands of the same state", () => {
    const alerts = Array.from({ length: 1000 }, (_, i) => alert(`a${i}`, 1, i, i + 0.5));
    const changes = [
      { seriesId: 1, ts: -50, state: "OK" as const, hard: true },
      { seriesId: 1, ts: 100, state: "CRITICAL" as const, hard: true },
      { seriesId: 1, ts: 300, state: "CRITICAL" as const, hard: true },
      { seriesId: 1, ts: 600, state: "OK" as const, hard: true },
    ];
    const [l] = layoutTimeline({ lanes: [lane(1, "h", "s", "i")], alerts, changes }, window, 100, 1000);
    expect(l!.bars.length).toBeLessThan(60);
    expect(l!.bands.map((b) => [b.state, b.x0, b.x1])).toEqual([
      ["OK", 0, 10],
      ["CRITICAL", 10, 60],
      ["OK", 60, 100],
    ]);
  });
});
