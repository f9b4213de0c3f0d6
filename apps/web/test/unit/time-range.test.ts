import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  describeRange,
  MAX_SPAN,
  PRESETS,
  panRange,
  parseInputText,
  readRange,
  resolveRange,
  selectionRange,
  type TimeRange,
  tickLabel,
  timeTicks,
  toInputText,
  wallClock,
  writeRange,
  zoneOffset,
  zoomRange,
} from "../../src/lib/time-range";

const H = 3_600_000;
const D = 24 * H;

describe("the range in the URL", () => {
  it.each<[string, TimeRange]>([
    ["", { kind: "relative", preset: "7d" }],
    ["range=24h", { kind: "relative", preset: "24h" }],
    ["range=90d", { kind: "relative", preset: "90d" }],
    ["range=1y", { kind: "relative", preset: "7d" }],
    ["range=toString", { kind: "relative", preset: "7d" }],
    ["from=1767607200000&to=1767610800000", { kind: "absolute", from: 1767607200000, to: 1767610800000 }],
    [
      "from=2026-01-05T10:00:00.000Z&to=2026-01-05T16:00:00.000Z",
      { kind: "absolute", from: Date.UTC(2026, 0, 5, 10), to: Date.UTC(2026, 0, 5, 16) },
    ],
    // Shorter than a minute, reversed or unparsable: the relative range (or the fallback).
    ["from=1000&to=2000", { kind: "relative", preset: "7d" }],
    ["from=2026-01-05T12:00:00Z&to=2026-01-05T10:00:00Z&range=1h", { kind: "relative", preset: "1h" }],
    ["from=yesterday&to=today&range=6h", { kind: "relative", preset: "6h" }],
  ])("?%s", (query, range) => {
    expect(readRange(new URLSearchParams(query), "7d")).toEqual(range);
  });

  it("writes what it reads, keeping the other parameters", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...(Object.keys(PRESETS) as (keyof typeof PRESETS)[])).map((preset): TimeRange => ({ kind: "relative", preset })),
          fc
            .tuple(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 60_000, max: 1e11 }))
            .map(([from, span]): TimeRange => ({ kind: "absolute", from, to: from + span })),
        ),
        (range) => {
          const params = writeRange(new URLSearchParams("at=x&range=1h&from=1"), range);
          expect(params.get("at")).toBe("x");
          expect(readRange(params, "24h")).toEqual(range);
        },
      ),
    );
  });
});

describe("moving the range", () => {
  it("resolves a relative range against now", () => {
    expect(resolveRange({ kind: "relative", preset: "1h" }, 10 * H)).toEqual({ from: 9 * H, to: 10 * H });
    expect(resolveRange({ kind: "absolute", from: 1, to: 2 }, 10 * H)).toEqual({ from: 1, to: 2 });
  });

  it("zooms around the centre or a point, within a minute and 90 days", () => {
    expect(zoomRange({ from: 0, to: H }, 0.5)).toEqual({ kind: "absolute", from: 15 * 60_000, to: 45 * 60_000 });
    expect(zoomRange({ from: 0, to: H }, 2, 0)).toEqual({ kind: "absolute", from: 0, to: 2 * H });
    expect(zoomRange({ from: 0, to: 60_000 }, 0.1)).toEqual({ kind: "absolute", from: 0, to: 60_000 });
    const out = zoomRange({ from: 0, to: 80 * D }, 2);
    expect(out.kind === "absolute" && out.to - out.from).toBe(MAX_SPAN);
  });

  it("pans by a fraction of the span", () => {
    expect(panRange({ from: 0, to: H }, -0.5)).toEqual({ kind: "absolute", from: -H / 2, to: H / 2 });
  });

  it("turns a drag into a range in either direction, ignoring a click", () => {
    expect(selectionRange(5 * H, 2 * H)).toEqual({ kind: "absolute", from: 2 * H, to: 5 * H });
    expect(selectionRange(H, H + 30_000)).toBeNull();
  });
});

describe("time zones", () => {
  const t = Date.UTC(2026, 10, 23, 14, 5); // 23 Nov 2026, 14:05 UTC

  it("reads the wall clock and the offset of a zone", () => {
    expect(wallClock(t, "Europe/Stockholm")).toMatchObject({ day: 23, hour: 15, minute: 5 });
    expect(zoneOffset(t, "Europe/Stockholm")).toBe(H);
    expect(zoneOffset(Date.UTC(2026, 6, 1), "Europe/Stockholm")).toBe(2 * H);
    expect(zoneOffset(t, "Asia/Kolkata")).toBe(5.5 * H);
    expect(zoneOffset(t, "UTC")).toBe(0);
  });

  it.each(["UTC", "Europe/Stockholm", "America/New_York", "Asia/Kolkata"])("writes and reads back 24-hour input text in %s", (zone) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (ms) => {
        const minute = Math.floor(ms / 60_000) * 60_000;
        const text = toInputText(minute, zone);
        expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
        // In a DST overlap the text is ambiguous: it reads back as an instant showing the same text.
        expect(toInputText(parseInputText(text, zone) as number, zone)).toBe(text);
      }),
    );
  });

  it.each([
    ["2026-11-23 14:05", "UTC", t],
    ["2026-11-23T14:05", "UTC", t],
    ["2026-11-23 15:05", "Europe/Stockholm", t],
    ["2026-11-23", "UTC", Date.UTC(2026, 10, 23)],
    ["2026-02-31 10:00", "UTC", null],
    ["2026-11-23 24:00", "UTC", null],
    ["23/11/2026", "UTC", null],
  ])("reads %s in %s", (text, zone, expected) => {
    expect(parseInputText(text, zone)).toBe(expected);
  });

  it("describes a range", () => {
    expect(describeRange({ kind: "relative", preset: "30d" }, "UTC")).toBe("Last 30 days");
    expect(describeRange({ kind: "absolute", from: t, to: t + D }, "Europe/Stockholm")).toBe("23 Nov 2026, 15:05 – 24 Nov 2026, 15:05");
  });
});

describe("ticks on round times", () => {
  it("steps whole hours, and whole days from midnight", () => {
    expect(timeTicks({ from: 0, to: 6 * H }, 6)).toEqual([0, 1, 2, 3, 4, 5, 6].map((h) => h * H));
    expect(timeTicks({ from: 1, to: D }, 5)).toEqual([6, 12, 18, 24].map((h) => h * H));
    expect(timeTicks({ from: 17 * D + 6 * H + 9 * 60_000, to: 24 * D }, 8)).toEqual([18, 19, 20, 21, 22, 23, 24].map((d) => d * D));
  });

  it("puts them on the zone's round hours and midnights", () => {
    const from = Date.UTC(2026, 10, 23, 0, 0);
    expect(timeTicks({ from, to: from + D }, 4, "Asia/Kolkata").map((x) => toInputText(x, "Asia/Kolkata").slice(11))).toEqual([
      "06:00",
      "12:00",
      "18:00",
      "00:00",
    ]);
    expect(timeTicks({ from, to: from + 7 * D }, 8, "Europe/Stockholm").map((x) => toInputText(x, "Europe/Stockholm").slice(11))).toEqual(
      Array(7).fill("00:00"),
    );
  });

  it("crosses a DST change on the zone's round hours", () => {
    const from = Date.UTC(2026, 9, 24, 12); // the day before Europe's clocks go back
    const ticks = timeTicks({ from, to: from + 2 * D }, 8, "Europe/Stockholm");
    for (const x of ticks) expect(toInputText(x, "Europe/Stockholm")).toMatch(/(00|06|12|18):00$/);
  });

  it("never gives more than asked for, all inside the range", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 60_000, max: 100 * D }),
        fc.integer({ min: 2, max: 20 }),
        (from, span, count) => {
          const ticks = timeTicks({ from, to: from + span }, count, "America/New_York");
          expect(ticks.length).toBeLessThanOrEqual(count + 1);
          for (const x of ticks) expect(x >= from && x <= from + span).toBe(true);
        },
      ),
    );
  });

  it("labels a tick by its time, or its date at a midnight over long spans", () => {
    expect(tickLabel(Date.UTC(2026, 10, 17, 6), D, "UTC")).toBe("06:00");
    expect(tickLabel(Date.UTC(2026, 10, 17), 7 * D, "UTC")).toBe("17 Nov");
    expect(tickLabel(Date.UTC(2026, 10, 17, 12), 7 * D, "UTC")).toBe("17 Nov 12:00");
  });
});
