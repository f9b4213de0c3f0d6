import { boundaries, classify, INITIAL_HARD_STATE, nextHardState } from "@tidemark/thresholds";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AggregateBucket, fitSuggestion, roundSignificant, type SuggestInput } from "../src/index.ts";
import { DAY, fiveMinute, HOUR, hourly, MONDAY, policy, random } from "./helpers.ts";

function input(buckets: AggregateBucket[], over: Partial<SuggestInput> = {}): SuggestInput {
  return { policy: policy("<"), periodIndex: 0, fiveMinute: buckets, hourly: hourly(buckets), percentile: 95, alertsPerWeek: 1, ...over };
}

const hourOf = (ts: number) => new Date(ts).getUTCHours();
const isWeekend = (ts: number) => [0, 6].includes(new Date(ts).getUTCDay());

/** A daily wave (low at night, high in the afternoon) with noise. */
function daily(days: number, seed = 1, amplitude = 50) {
  const r = random(seed);
  return fiveMinute(days, (ts) => 100 + amplitude * Math.sin(((hourOf(ts) - 8) / 24) * 2 * Math.PI) + r() * 10);
}

describe("seasonality by evidence", () => {
  it.each([
    { name: "a flat series", buckets: () => fiveMinute(28, (_, i) => 50 + random(i)() * 10), expected: "none" },
    { name: "a daily wave", buckets: () => daily(28), expected: "hour-of-day" },
    {
      name: "weekdays busy, weekends idle",
      buckets: () =>
        fiveMinute(28, (ts, i) => (isWeekend(ts) ? 10 : 100 + 50 * Math.sin(((hourOf(ts) - 8) / 24) * 2 * Math.PI)) + random(i)() * 5),
      expected: "weekday-weekend",
    },
    {
      name: "every day of the week its own level",
      buckets: () => fiveMinute(28, (ts, i) => 50 + 30 * new Date(ts).getUTCDay() + random(i)() * 5),
      expected: "hour-of-week",
    },
  ] as const)("$name → $expected", ({ buckets, expected }) => {
    const s = fitSuggestion(input(buckets()));
    expect(s.seasonality).toBe(expected);
    expect(s.seasonalityErrors[expected]).not.toBeNull();
  });

  it("proposes a weekday and a weekend period when the days differ, and fits each", () => {
    const buckets = fiveMinute(28, (ts, i) => (isWeekend(ts) ? 10 : 200) + random(i)() * 5);
    const s = fitSuggestion(input(buckets));
    expect(s.periods?.map((p) => p.weeks.map((w) => w.dayOfWeek))).toEqual([
      [2, 3, 4, 5, 6],
      [1, 7],
    ]);
    const [weekday, weekend] = (s.periods ?? []).map((p) => p.hours.entries.map((e) => (e?.kind === "constant" ? e.value : null)));
    expect(Math.min(...(weekday as number[]))).toBeGreaterThan(200 / 1.1);
    expect(Math.max(...(weekend as number[]))).toBeLessThan(100);
    // The single-period fallback is the envelope: no weekday alerts from it either.
    expect(Math.min(...(s.hours as number[]))).toBeGreaterThan(200 / 1.1);
  });

  it("keeps to hours of the day inside a period that only applies on some days", () => {
    const weekendOnly = policy("<", {
      periods: [
        {
          ...policy("<").periods[0]!,
          weeks: [
            { week: null, dayOfWeek: 1 },
            { week: null, dayOfWeek: 7 },
          ],
        },
      ],
    });
    const s = fitSuggestion(input(daily(28), { policy: weekendOnly }));
    expect(s.periods).toBeNull();
    expect(["none", "hour-of-day"]).toContain(s.seasonality);
    expect(s.samples.reduce((a, b) => a + b, 0)).toBe(8 * 288);
  });
});

describe("robust lines", () => {
  it("puts each hour's line above that hour's usual values, following the daily wave", () => {
    const s = fitSuggestion(input(daily(28)));
    const hours = s.hours as number[];
    expect(hours.every((v) => v !== null)).toBe(true);
    expect(hours[14]).toBeGreaterThan(hours[2] as number);
    // Warning line (T + 10 %) above the wave's top in that hour, and not absurdly far above it.
    const top = (h: number) => 110 + 50 * Math.sin(((h - 8) / 24) * 2 * Math.PI);
    for (const h of [2, 8, 14, 20]) {
      expect((hours[h] as number) * 1.1).toBeGreaterThan(top(h) - 5);
      expect((hours[h] as number) * 1.1).toBeLessThan(top(h) + 60);
    }
  });

  it("ignores null buckets: a flat 45–55 series with two null hours a week stays near 55 (not 165)", () => {
    const r = random(7);
    const buckets = fiveMinute(28, (ts) => (new Date(ts).getUTCDay() === 3 && [3, 4].includes(hourOf(ts)) ? null : 45 + r() * 10));
    const s = fitSuggestion(input(buckets));
    for (const v of s.hours) expect((v as number) * 1.1).toBeLessThan(70);
    expect(s.history.weeks).toBeCloseTo(4 - (8 * HOUR) / (7 * DAY), 1);
  });

  it("uses the real length of history: one week is one week", () => {
    const s = fitSuggestion(input(daily(7)));
    expect(s.history.weeks).toBeCloseTo(1, 2);
    expect(s.history.fitWeeks + s.history.checkWeeks).toBeCloseTo(1, 2);
    expect(s.expected.basis).toBe("later-part");
  });

  it("reads a sensor quiet at night in calendar weeks: its nights are how it reports, not missing history", () => {
    const r = random(11);
    const s = fitSuggestion(input(fiveMinute(21, (ts) => (hourOf(ts) >= 8 && hourOf(ts) < 18 ? 40 + r() * 20 : null))));
    // Three weeks but the last night: not the 1.25 weeks of its daytime hours.
    expect(s.history.weeks).toBeCloseTo(3 - 14 / (7 * 24), 2);
    expect(s.history.fitWeeks + s.history.checkWeeks).toBeGreaterThan(2.5);
  });

  it("keeps a percentage's lines inside 0–100: warning and critical below 100 even for a busy CPU", () => {
    const r = random(3);
    const buckets = fiveMinute(14, () => Math.min(100, 85 + r() * 14));
    const s = fitSuggestion(input(buckets, { seriesKey: "web1-cpu-usage" }));
    expect(s.bounds).toEqual({ min: 0, max: 100, source: "detected" });
    s.hours.forEach((t, h) => {
      const levels = s.levels[h] ?? { warning: 10, critical: 30 };
      expect((t as number) * (1 + levels.warning / 100)).toBeLessThan(100);
      expect((t as number) * (1 + levels.critical / 100)).toBeLessThan(100.0001);
    });
  });

  it("handles a mostly-zero counter on purpose: `<` sets the line from the bursts, `>` leaves no impossible lower line", {
    timeout: 60_000,
  }, () => {
    const r = random(5);
    const buckets = fiveMinute(28, () => (r() < 0.85 ? 0 : 1 + Math.floor(r() * 4)));
    const upper = fitSuggestion(input(buckets));
    for (const t of upper.hours) expect(t as number).toBeGreaterThanOrEqual(1);
    expect(upper.notes.some((n) => n.startsWith("mostly zero"))).toBe(true);
    const lower = fitSuggestion(input(buckets, { policy: policy(">") }));
    expect(lower.hours.every((t) => t === null)).toBe(true);
  });

  it("reads troughs for `>` and puts the line below them", () => {
    const s = fitSuggestion(input(daily(28), { policy: policy(">") }));
    const bottom = (h: number) => 100 + 50 * Math.sin(((h - 8) / 24) * 2 * Math.PI);
    for (const h of [2, 14]) expect((s.hours[h] as number) * 0.9).toBeLessThan(bottom(h) + 1);
  });

  it("puts T at each hour's median for `=`, with no margin", () => {
    const s = fitSuggestion(input(daily(14, 2, 0), { policy: policy("=") }));
    expect(s.margin).toBe(0);
    for (const t of s.hours) expect(t as number).toBeCloseTo(105, -1);
  });

  it("says so when there is no history", () => {
    const s = fitSuggestion(input([]));
    expect(s.hours.every((v) => v === null)).toBe(true);
    expect(s.withinBudget).toBe(false);
  });
});

describe("margin and persistence", () => {
  it("fits them on one part and reports the alerts a week on the later part with a range", () => {
    const r = random(11);
    // Hourly spikes twice a day on a noisy level: a one-result line would fire often.
    const buckets = fiveMinute(28, (ts) => 100 + r() * 20 + (ts % (12 * HOUR) === 0 ? 80 : 0));
    const s = fitSuggestion(input(buckets));
    expect(s.expected.basis).toBe("later-part");
    expect(s.expected.low).toBeLessThanOrEqual(s.expected.alertsPerWeek);
    expect(s.expected.high).toBeGreaterThanOrEqual(s.expected.alertsPerWeek);
    expect(s.history.checkWeeks).toBeGreaterThan(1);
    expect(s.maxSoft).toBeGreaterThanOrEqual(1);
  });

  it("a fixed maxSoft is kept", () => {
    expect(fitSuggestion(input(daily(14), { maxSoft: 5 })).maxSoft).toBe(5);
  });

  it("a larger budget never needs a larger margin (fixed persistence)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (seed, a, b) => {
          const r = random(seed);
          const buckets = fiveMinute(8, (ts) => 50 + r() * 10 + (r() < 0.01 ? 40 : 0) + (hourOf(ts) > 12 ? 20 : 0));
          const [small, large] = [Math.min(a, b), Math.max(a, b)];
          const tight = fitSuggestion(input(buckets, { alertsPerWeek: small, maxSoft: 1 }));
          const loose = fitSuggestion(input(buckets, { alertsPerWeek: large, maxSoft: 1 }));
          expect(loose.margin).toBeLessThanOrEqual(tight.margin);
        },
      ),
      { numRuns: 10 },
    );
  }, 60_000);
});

describe("invariants over arbitrary histories", () => {
  const history = fc
    .record({
      seed: fc.integer({ min: 1, max: 1_000_000 }),
      days: fc.integer({ min: 1, max: 8 }),
      base: fc.double({ min: 0, max: 1000, noNaN: true }),
      noise: fc.double({ min: 0, max: 200, noNaN: true }),
      nullShare: fc.double({ min: 0, max: 0.3, noNaN: true }),
      zeroShare: fc.double({ min: 0, max: 0.95, noNaN: true }),
    })
    .map(({ seed, days, base, noise, nullShare, zeroShare }) => {
      const r = random(seed);
      return fiveMinute(days, () => (r() < nullShare ? null : r() < zeroShare ? 0 : base + r() * noise));
    });

  it("every suggested value is rounded, and every line of a non-negative metric lies above 0 (and below 100 for a percentage)", () => {
    fc.assert(
      fc.property(history, fc.constantFrom<"<" | ">">("<", ">"), fc.boolean(), (buckets, calc, percent) => {
        const scaled = percent
          ? buckets
              .map((b) => ({ ...b, avg: b.avg === null ? null : Math.min(100, b.avg / 10) }))
              .map((b) => ({ ...b, min: b.avg, max: b.avg }))
          : buckets;
        const s = fitSuggestion(input(scaled, { policy: policy(calc), seriesKey: percent ? "cpu" : "requests" }));
        s.hours.forEach((t, h) => {
          if (t === null) return;
          expect(roundSignificant(t)).toBe(t);
          const levels = s.levels[h] ?? { warning: 10, critical: 30 };
          for (const pct of [levels.warning, levels.critical]) {
            const line = calc === "<" ? t * (1 + pct / 100) : t * (1 - pct / 100);
            expect(line).toBeGreaterThan(0);
            if (percent) expect(line).toBeLessThan(100.0001);
          }
        });
        expect(Number.isFinite(s.expected.alertsPerWeek)).toBe(true);
        expect(s.expected.low).toBeLessThanOrEqual(s.expected.high);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("null buckets are ignored: a history with them suggests what it suggests without them", () => {
    fc.assert(
      fc.property(history, (buckets) => {
        const present = buckets.filter((b) => b.avg !== null);
        const a = fitSuggestion(input(present));
        const b = fitSuggestion(input(buckets));
        expect(b.hours).toEqual(a.hours);
        expect(b.maxSoft).toBe(a.maxSoft);
        expect(b.history.weeks).toBeCloseTo(a.history.weeks, 9);
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});

describe("short histories", () => {
  /** Bursty counts: a quiet level of about 5 with log-normal bursts (Irwin–Hall normal noise). */
  function bursty(days: number, seed: number, start: number) {
    const r = random(seed);
    return fiveMinute(
      days,
      () => {
        let n = -6;
        for (let i = 0; i < 12; i++) n += r();
        return Math.round(5 * Math.exp(0.9 * n));
      },
      start,
    );
  }

  /** Alerts (hard state leaving OK) the suggestion raises on `buckets`, each bucket one result, as the engine counts them. */
  function alertsOn(s: ReturnType<typeof fitSuggestion>, buckets: AggregateBucket[]): number {
    let track = INITIAL_HARD_STATE;
    let alerts = 0;
    for (const b of buckets) {
      const t = s.hours[new Date(b.ts).getUTCHours()] as number;
      const state = classify("<", b.max as number, boundaries("<", t, 10, 30));
      const next = nextHardState(track, state, s.maxSoft);
      if (next.hardChanged && next.hardState !== "OK" && track.hardState === "OK") alerts++;
      track = next;
    }
    return alerts;
  }

  it("four days of bursty counts: the weeks after them see about the budget, not one alert per history length", { timeout: 60_000 }, () => {
    const history = bursty(4, 11, MONDAY);
    const s = fitSuggestion(input(history));
    expect(s.scale).toBe("log");
    const later = bursty(28, 12, MONDAY + 4 * DAY);
    // Budget 1 a week; a fit that only keeps one alert in its four days promises 1.75 a week and shows more.
    expect(alertsOn(s, later) / 4).toBeLessThanOrEqual(1.5);
  });

  it("may alert on the first result over the line (maxSoft 0) when persistence buys nothing", { timeout: 60_000 }, () => {
    const s = fitSuggestion(input(daily(28)));
    expect(s.maxSoft).toBe(0);
  });
});
