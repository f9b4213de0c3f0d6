import { InMemorySeriesData } from "@tidemark/expr";
import { describe, expect, it } from "vitest";
import { evaluateThreshold, thresholdPolicySchema } from "../src/index.ts";
import { e, hours, period, policy, utc } from "./helpers.ts";

const AT = utc(2024, 3, 13, 10, 0); // a Wednesday

describe("the Bischeck guide example", () => {
  it("W=10, C=30, T=11000, '>', v=12000 is OK with boundaries 9900 and 7700", () => {
    const r = evaluateThreshold(policy(), { at: AT, value: 12000 });
    expect(r).toMatchObject({
      state: "OK",
      threshold: 11000,
      warning: 9900,
      critical: 7700,
      periodIndex: 0,
      rule: "default",
      calcMethod: ">",
    });
    expect(r.explanation).toBe("OK 12000 (11000 > W > 9900 > C > 7700)");
  });
});

describe("calc methods and boundaries (strict, as Bischeck)", () => {
  const p = (calcMethod: ">" | "<" | "=") => policy({ periods: [period({ calcMethod, hours: hours(10000) })] });
  it.each([
    [">", 9000, "OK"], // exactly on the warning boundary
    [">", 8999.99, "WARNING"],
    [">", 7000, "WARNING"], // exactly on the critical boundary
    [">", 6999.99, "CRITICAL"],
    [">", 1e9, "OK"],
    ["<", 11000, "OK"],
    ["<", 11000.01, "WARNING"],
    ["<", 13000, "WARNING"],
    ["<", 13000.01, "CRITICAL"],
    ["<", -5, "OK"],
    ["=", 10000, "OK"],
    ["=", 11000, "OK"],
    ["=", 9000, "OK"],
    ["=", 11000.01, "WARNING"],
    ["=", 8999.99, "WARNING"],
    ["=", 13000, "WARNING"],
    ["=", 7000, "WARNING"],
    ["=", 13000.01, "CRITICAL"],
    ["=", 6999.99, "CRITICAL"],
  ] as const)("%s with T=10000, v=%s → %s", (calc, value, state) => {
    expect(evaluateThreshold(p(calc), { at: AT, value }).state).toBe(state);
  });

  it("reports the boundaries of each method and explains them", () => {
    const lt = evaluateThreshold(p("<"), { at: AT, value: 12000 });
    expect(lt).toMatchObject({ state: "WARNING", warning: 11000, critical: 13000, warningLow: null, criticalLow: null });
    expect(lt.explanation).toBe("WARNING 12000 (10000 < W < 11000 < C < 13000)");
    const eq = evaluateThreshold(p("="), { at: AT, value: 6000 });
    expect(eq).toMatchObject({ state: "CRITICAL", warning: 11000, critical: 13000, warningLow: 9000, criticalLow: 7000 });
    expect(eq.explanation).toBe("CRITICAL 6000 (10000 ± W 9000:11000 ± C 7000:13000)");
    expect(evaluateThreshold(p(">"), { at: AT, value: 8000 }).explanation).toBe("WARNING 8000 (10000 > W > 9000 > C > 7000)");
  });
});

describe("interpolation between hours", () => {
  const table = Array.from({ length: 24 }, (_, h) => 1000 * (h + 1)); // T[h] = 1000·(h+1)
  const p = policy({ periods: [period({ hours: hours(table) })] });
  it.each([
    [10, 0, 11000],
    [10, 30, 11500],
    [10, 59, 11000 + (59 * 1000) / 60],
    [0, 15, 1250],
    // 23:xx interpolates towards hour 0 of the same period's table: 24000 → 1000
    [23, 0, 24000],
    [23, 30, 24000 + (30 * (1000 - 24000)) / 60],
    [23, 59, 24000 + (59 * (1000 - 24000)) / 60],
  ])("T(%s:%s) = %s", (h, m, expected) => {
    const r = evaluateThreshold(p, { at: utc(2024, 3, 13, h, m), value: 0 });
    expect(r.threshold).toBeCloseTo(expected, 9);
    expect(r.hour).toBe(h);
    expect(r.minute).toBe(m);
  });

  it("uses the whole minute: seconds do not move the threshold", () => {
    const r = evaluateThreshold(p, { at: utc(2024, 3, 13, 10, 30) + 59_999, value: 0 });
    expect(r.threshold).toBe(11500);
  });

  it("a null neighbour makes the threshold null: OK, shown as NA", () => {
    const withHole = policy({ periods: [period({ hours: hours([...table.slice(0, 12), null, ...table.slice(13)]) })] });
    for (const h of [11, 12]) {
      const r = evaluateThreshold(withHole, { at: utc(2024, 3, 13, h, 20), value: 12000 });
      expect(r).toMatchObject({ state: "OK", threshold: null, warning: null, critical: null, noThreshold: "nullHour" });
      expect(r.explanation).toBe("OK 12000 (NA)");
    }
    expect(evaluateThreshold(withHole, { at: utc(2024, 3, 13, 13, 20), value: 0 }).threshold).not.toBeNull();
    const lastHourNull = policy({ periods: [period({ hours: hours([null, ...table.slice(1)]) })] });
    expect(evaluateThreshold(lastHourNull, { at: utc(2024, 3, 13, 23, 10), value: 0 }).threshold).toBeNull();
  });
});

describe("per-hour warning and critical levels", () => {
  it("override the period's levels for their hour only", () => {
    const p = policy({ periods: [period({ hours: hours(10000, [...Array(9).fill(null), { warning: 5, critical: 50 }]) })] });
    expect(evaluateThreshold(p, { at: utc(2024, 3, 13, 9, 30), value: 9400 })).toMatchObject({
      state: "WARNING",
      warning: 9500,
      critical: 5000,
    });
    expect(evaluateThreshold(p, { at: utc(2024, 3, 13, 10, 30), value: 9400 })).toMatchObject({
      state: "OK",
      warning: 9000,
      critical: 7000,
    });
  });
});

describe("null measured values", () => {
  it("get the policy's nullState, UNKNOWN by default", () => {
    const parsed = thresholdPolicySchema.parse({ periods: [period()], holidays: [] });
    expect(evaluateThreshold(parsed, { at: AT, value: null }).state).toBe("UNKNOWN");
    expect(evaluateThreshold(policy({ nullState: "CRITICAL" }), { at: AT, value: null })).toMatchObject({
      state: "CRITICAL",
      explanation: "CRITICAL null (11000 > W > 9900 > C > 7700)",
    });
    expect(evaluateThreshold(policy(), { at: AT, value: Number.NaN }).state).toBe("UNKNOWN");
  });

  it("but not on a holiday: Bischeck's getState answers OK before it looks at the value", () => {
    const p = policy({ holidays: [{ year: 2024, days: ["0313"] }] });
    expect(evaluateThreshold(p, { at: AT, value: null }).state).toBe("OK");
  });
});

describe("holidays", () => {
  const p = policy({
    holidays: [
      { year: 2024, days: ["1225", "0313"] },
      { year: 2025, days: ["0101"] },
    ],
  });
  it("make every hour null and the state OK", () => {
    for (const h of [0, 10, 23]) {
      const r = evaluateThreshold(p, { at: utc(2024, 12, 25, h, 5), value: 1 });
      expect(r).toMatchObject({ state: "OK", threshold: null, periodIndex: null, noThreshold: "holiday", explanation: "OK 1 (NA)" });
    }
  });
  it("apply to their year only", () => {
    expect(evaluateThreshold(p, { at: utc(2025, 12, 25), value: 1 }).state).toBe("CRITICAL");
    expect(evaluateThreshold(p, { at: utc(2025, 1, 1), value: 1 }).noThreshold).toBe("holiday");
    expect(evaluateThreshold(p, { at: utc(2024, 1, 1), value: 1 }).state).toBe("CRITICAL");
  });
  it("are read in the policy's time zone", () => {
    const sthlm = policy({ timeZone: "Europe/Stockholm", holidays: [{ year: 2024, days: ["1225"] }] });
    // 23:30 UTC on the 24th is already the 25th in Stockholm
    expect(evaluateThreshold(sthlm, { at: Date.UTC(2024, 11, 24, 23, 30), value: 1 }).noThreshold).toBe("holiday");
    expect(evaluateThreshold(sthlm, { at: Date.UTC(2024, 11, 25, 23, 30), value: 1 }).noThreshold).toBeNull();
  });
});

describe("expression hours", () => {
  const data = new InMemorySeriesData();
  const base = utc(2024, 3, 13, 0, 0);
  // one point a minute for two days before and after: value = minutes since base
  for (let m = -2880; m <= 2880; m++) data.append("web-http-resp", base + m * 60_000, m);
  const p = policy({
    periods: [
      period({ hours: hours(Array.from({ length: 24 }, () => e("$$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[-60M] + 1000"))) }),
    ],
  });
  const context = { data, macros: { host: "web", service: "http", item: "resp" } };

  describe("T[h] and T[h+1] are computed at the time of the check (Twenty4HourThreshold.getThresholdByHourAndMinute)", () => {
    // A step a full hour: 100 × the hour since base.
    const steps = new InMemorySeriesData();
    for (let m = -2880; m <= 2880; m++) steps.append("web-http-resp", base + m * 60_000, 100 * Math.floor(m / 60));
    const stepContext = { ...context, data: steps };
    it("Bischeck: both neighbours read [-60M] back from 10:10, i.e. 09:10", () => {
      const r = evaluateThreshold(p, { at: utc(2024, 3, 13, 10, 10), value: 0, context: stepContext });
      expect(r.threshold).toBe(900 + 1000);
    });
    it("the expressionsAtHourStart deviation: T[10] at 10:00, T[11] at 11:00, interpolated", () => {
      const atStart = { ...p, deviations: ["expressionsAtHourStart" as const] };
      const r = evaluateThreshold(atStart, { at: utc(2024, 3, 13, 10, 10), value: 0, context: stepContext });
      expect(r.threshold).toBeCloseTo(1900 + (10 * 100) / 60, 9);
    });
  });

  it("the policy's notFullListParse skips nulls in lists (Bischeck's properties.xml setting)", () => {
    const gaps = new InMemorySeriesData();
    gaps.append("web-http-resp", utc(2024, 3, 13, 10, 0), null);
    gaps.append("web-http-resp", utc(2024, 3, 13, 10, 1), 300);
    const avg = policy({ periods: [period({ hours: hours(Array.from({ length: 24 }, () => e("avg(web-http-resp[0:1])"))) })] });
    const at = utc(2024, 3, 13, 10, 30);
    expect(evaluateThreshold(avg, { at, value: 1, context: { data: gaps } }).threshold).toBeNull();
    expect(evaluateThreshold({ ...avg, notFullListParse: true }, { at, value: 1, context: { data: gaps } }).threshold).toBe(300);
    expect(
      evaluateThreshold({ ...avg, notFullListParse: true }, { at, value: 1, context: { data: gaps, dropNulls: false } }).threshold,
    ).toBeNull();
  });

  it("a failing expression is a null threshold, with the error reported", () => {
    const broken = policy({ periods: [period({ hours: hours(Array.from({ length: 24 }, () => e("nope-nope-nope[0]"))) })] });
    const r = evaluateThreshold(broken, { at: AT, value: 5, context });
    expect(r).toMatchObject({ state: "OK", threshold: null, noThreshold: "expressionError" });
    expect(r.error?.code).toBe("UNKNOWN_SERIES");
    const syntax = policy({ periods: [period({ hours: hours(Array.from({ length: 24 }, () => e("avg(1,"))) })] });
    expect(evaluateThreshold(syntax, { at: AT, value: 5, context }).error?.code).toBe("SYNTAX");
    expect(evaluateThreshold(p, { at: AT, value: 5 }).error?.code).toBe("EVAL");
  });

  it("with no data is a null threshold", () => {
    const r = evaluateThreshold(p, { at: utc(2024, 3, 20, 10, 30), value: 5, context: { ...context, data: new InMemorySeriesData() } });
    expect(r.error?.code).toBe("UNKNOWN_SERIES");
    const empty = new InMemorySeriesData();
    empty.ensure("web-http-resp");
    expect(evaluateThreshold(p, { at: AT, value: 5, context: { ...context, data: empty } })).toMatchObject({
      threshold: null,
      noThreshold: "nullHour",
    });
  });
});

describe("time zones", () => {
  it("read the hour in the policy's zone, across DST", () => {
    const table = Array.from({ length: 24 }, (_, h) => 100 * h);
    const p = policy({ timeZone: "Europe/Stockholm", periods: [period({ hours: hours(table) })] });
    // winter: UTC+1, summer: UTC+2
    expect(evaluateThreshold(p, { at: Date.UTC(2024, 0, 10, 9, 0), value: 0 })).toMatchObject({ hour: 10, threshold: 1000 });
    expect(evaluateThreshold(p, { at: Date.UTC(2024, 6, 10, 9, 0), value: 0 })).toMatchObject({ hour: 11, threshold: 1100 });
    const kolkata = policy({ timeZone: "Asia/Kolkata", periods: [period({ hours: hours(table) })] });
    expect(evaluateThreshold(kolkata, { at: Date.UTC(2024, 0, 10, 4, 0), value: 0 })).toMatchObject({
      hour: 9,
      minute: 30,
      threshold: 950,
    });
  });

  it("refuses an unknown zone with a clear error", () => {
    expect(() => evaluateThreshold(policy({ timeZone: "Mars/Olympus" }), { at: AT, value: 1 })).toThrow(
      /unknown time zone 'Mars\/Olympus'/,
    );
  });
});
